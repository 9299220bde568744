package sweep

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

// TestASweepRunsTheOriginalVariantsOnlyWithTheirBinaries asks a sweep for
// the original variants with and without make original's binaries.
func TestASweepRunsTheOriginalVariantsOnlyWithTheirBinaries(t *testing.T) {
	for _, tc := range benchtest.OriginalCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			opts := runner.Options{BinDir: benchtest.BothDesigns(t), OriginalDir: tc.Dir, Quick: true, Variants: benchtest.OriginalVariants}
			if sp, err := BuildPlan(opts); err != nil || len(sp.Items[0].Variants) != len(tc.Want) {
				t.Errorf("sweep plan: %v, %+v: want the variants %v", err, sp, tc.Want)
			}
		})
	}
}
