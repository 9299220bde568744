package bench

import (
	"context"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

// Run measures the scenarios the options ask for, calibrating
// first, and writes the report into a new timestamped directory under
// Opts.Out, which it returns.
func Run(ctx context.Context, r *runner.Runner) (string, *results.Summary, error) {
	p, err := BuildPlan(r.Opts)
	if err != nil {
		return "", nil, err
	}
	if r.Calibrate == nil {
		r.Calibrate = calibrateStack
	}
	return r.Measure(ctx, p)
}
