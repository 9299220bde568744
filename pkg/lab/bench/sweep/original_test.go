package sweep

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
)

// TestASweepRunsTheOriginalVariantsOnlyWithTheirBinaries asks a sweep for
// the original variants with and without make original's binaries.
func TestASweepRunsTheOriginalVariantsOnlyWithTheirBinaries(t *testing.T) {
	asked := []string{"legacy", "legacy-original", "stack-original"}
	for _, tc := range []struct {
		name string
		dir  string
		want []string
	}{
		{"without the binaries", t.TempDir(), []string{"legacy"}},
		{"with them", benchtest.BinDir(t, original.Binaries...), asked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := runner.Options{BinDir: benchtest.BothDesigns(t), OriginalDir: tc.dir, Quick: true, Variants: asked}
			if sp, err := BuildPlan(opts); err != nil || len(sp.Items[0].Variants) != len(tc.want) {
				t.Errorf("sweep plan: %v, %+v: want the variants %v", err, sp, tc.want)
			}
		})
	}
}
