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
			// The smallest scale-up, after the headline and the smallest
			// idle: there every variant runs.
			if sp, err := BuildPlan(opts); err != nil || len(sp.Items[2].Variants) != len(tc.Want) {
				t.Errorf("sweep plan: %v, %+v: want the variants %v", err, sp, tc.Want)
			}
		})
	}
}
