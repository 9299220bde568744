package bench

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
)

// TestTheOriginalVariantsRunOnlyWithTheirBinaries asks for the original
// variants with and without make original's binaries: without, they are
// left out with one note saying how to build them; with, they run.
func TestTheOriginalVariantsRunOnlyWithTheirBinaries(t *testing.T) {
	asked := benchtest.OriginalVariants
	for _, tc := range benchtest.OriginalCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			opts := runner.Options{BinDir: benchtest.BothDesigns(t), OriginalDir: tc.Dir, Quick: true, Variants: asked}
			p, err := BuildPlan(opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range p.Items {
				var names []string
				for _, v := range it.Variants {
					names = append(names, v.Name)
				}
				if strings.Join(names, ",") != strings.Join(tc.Want, ",") {
					t.Errorf("%s runs %v, want %v", it.Scenario.Name, names, tc.Want)
				}
			}
			notes := strings.Join(p.Notes, "\n")
			if missing := len(tc.Want) < len(asked); missing != strings.Contains(notes, "make original V04_SRC=") {
				t.Errorf("notes %q: want the make original line only when the binaries are missing", notes)
			}
		})
	}
	if got := original.DirBeside(filepath.Join("x", "_output", "bin")); got != filepath.Join("x", "_output", "v0.4") {
		t.Errorf("DirBeside(x/_output/bin) = %s, want x/_output/v0.4", got)
	}
}
