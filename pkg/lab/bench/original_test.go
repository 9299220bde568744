package bench

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
)

// TestTheOriginalVariantsRunOnlyWithTheirBinaries asks for the original
// variants with and without make original's binaries: without, they are
// left out with one note saying how to build them; with, they run.
func TestTheOriginalVariantsRunOnlyWithTheirBinaries(t *testing.T) {
	asked := []string{"legacy", "legacy-original", "stack-original"}
	for _, tc := range []struct {
		name string
		dir  string
		want []string
	}{
		{"without the binaries", t.TempDir(), []string{"legacy"}},
		{"with them", fakeBinDir(t, original.Binaries...), asked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{BinDir: bothDesigns(t), OriginalDir: tc.dir, Quick: true, Variants: asked}
			p, err := BuildPlan(opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range p.Items {
				var names []string
				for _, v := range it.Variants {
					names = append(names, v.Name)
				}
				if strings.Join(names, ",") != strings.Join(tc.want, ",") {
					t.Errorf("%s runs %v, want %v", it.Scenario.Name, names, tc.want)
				}
			}
			notes := strings.Join(p.Notes, "\n")
			if missing := len(tc.want) < len(asked); missing != strings.Contains(notes, "make original V04_SRC=") {
				t.Errorf("notes %q: want the make original line only when the binaries are missing", notes)
			}
			opts.Sweep, opts.Quick = true, true
			if sp, err := BuildPlan(opts); err != nil || len(sp.Items[0].Variants) != len(tc.want) {
				t.Errorf("sweep plan: %v, %+v: want the variants %v", err, sp, tc.want)
			}
			hp, err := BuildHistoryPlan(Options{BinDir: opts.BinDir, OriginalDir: tc.dir, Quick: true})
			if err != nil {
				t.Fatal(err)
			}
			last := hp.Timeline[len(hp.Timeline)-1].Variant
			if want := map[bool]string{true: "legacy", false: "legacy-original"}[len(tc.want) < len(asked)]; last != want {
				t.Errorf("the timeline ends with %s, want %s", last, want)
			}
		})
	}
	if got := original.DirBeside(filepath.Join("x", "_output", "bin")); got != filepath.Join("x", "_output", "v0.4") {
		t.Errorf("DirBeside(x/_output/bin) = %s, want x/_output/v0.4", got)
	}
}

// TestTheOriginalsAreCheckedAgainstOurPortOf2014 pairs each original
// variant with legacy for "Checked against the originals", with a reason
// for the figures they are known to differ by.
func TestTheOriginalsAreCheckedAgainstOurPortOf2014(t *testing.T) {
	pairs := originalPairs([]string{"legacy", "legacy-original", "stack-original"})
	if len(pairs) != 2 || pairs[0] != [2]string{"legacy", "legacy-original"} || pairs[1] != [2]string{"legacy", "stack-original"} {
		t.Errorf("pairs %v, want legacy beside legacy-original and stack-original", pairs)
	}
	for _, f := range []string{"peak_rss", "apiserver_cpu", "time_to_running"} {
		if departureFor("stack-original", "scale-up", f) == "" {
			t.Errorf("stack-original's scale-up %s has no reason to differ", f)
		}
	}
	if !is2014("stack-original") || is2014("upstream") {
		t.Error("the originals are held to the 2014 design, upstream to today's")
	}
}
