package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Measure runs p, calibrating first where it asks, and writes the report
// into a new timestamped directory under Opts.Out, which it returns. When
// ctx ends (Ctrl-C) the run in progress is stopped, its cluster killed,
// and a report of what finished is still written, marked as interrupted.
func (r *Runner) Measure(ctx context.Context, p *Plan) (string, *results.Summary, error) {
	started, dir, err := r.Start()
	if err != nil {
		return "", nil, err
	}

	sum := &results.Summary{Started: started, Notes: p.Notes, Choices: p.Choices, Commit: r.Commit()}
	sum.Machine = Machine()
	sum.Machine.FileLimit = stack.RaiseFileLimit()
	sum.Options.Runs = p.RunsEach
	sum.Options.Quick, sum.Options.Large, sum.Options.Seed = r.Opts.Quick, r.Opts.Large, r.Opts.Seed
	sum.Options.Sweep = p.Sweep
	sum.Options.Scenarios, sum.Options.Variants = PlanNames(p)
	for _, n := range p.Notes {
		r.Say("note: %s", n)
	}
	r.Say("benchmark: %d scenario runs%s, output in %s", p.Runs(), map[bool]string{true: " after calibration", false: ""}[p.Calibrate], dir)

	if p.Calibrate && ctx.Err() == nil {
		say := fmt.Sprintf("calibrate: the stack's ceiling, raw etcd writes and apiserver pod POSTs at %v clients, %.0f s each", p.CalibrationClients, p.CalibrationSeconds)
		if p.ListCosts {
			say += fmt.Sprintf(", and a LIST of %d pods read both ways", ListPods)
		}
		r.Say("%s", say)
		cal, err := r.Calibrate(ctx, r, filepath.Join(dir, "calibrate"), p)
		if err != nil {
			sum.Notes = append(sum.Notes, fmt.Sprintf("The calibration failed (%v), so there is no create floor to compare with.", err))
			r.Say("calibrate: failed: %v", err)
		}
		sum.Calibration = cal
		os.RemoveAll(filepath.Join(dir, "calibrate"))
	}

	r.Settle(p)
	runs, skipped := r.RunItems(ctx, dir, p, sum.Machine.CPUs)
	sum.Skipped = skipped
	if ctx.Err() != nil {
		sum.Interrupted = true
		sum.Notes = append(sum.Notes, fmt.Sprintf("Interrupted after %d of %d runs: the figures below are of the runs that finished.", CountOK(runs), p.Runs()))
		r.Say("interrupted: writing a report of the %d runs that finished", CountOK(runs))
	}

	sum.Scenarios, sum.Failures = Aggregate(p, runs)
	sum.Lab = LabRuns(runs)
	sum.Profiles = Profiles(runs)
	sum.Machine.LoadAfter = LoadAverage()
	sum.Findings = findings.Findings(sum)
	sum.Finished = r.Now()
	sum.Seconds = sum.Finished.Sub(started).Seconds()
	if err := report.Write(dir, sum, runs, cpuModel(), r.Opts.PNG); err != nil {
		return dir, sum, err
	}
	LinkLatest(r.Opts.Out, dir)
	if err := r.Publish(dir, report.ResultsFile, sum.Interrupted); err != nil {
		return dir, sum, err
	}
	return dir, sum, nil
}

// CountOK counts the runs that finished.
func CountOK(runs []results.RunRecord) int {
	n := 0
	for _, r := range runs {
		if r.Outcome != nil {
			n++
		}
	}
	return n
}
