package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// CalibrationClients are the concurrency levels of etcd's own published
// v2 benchmarks, which the calibration mirrors.
var CalibrationClients = []int{1, 64, 256}

// calibrationWarmup is the unmeasured start of each level.
const calibrationWarmup = 500 * time.Millisecond

// calibrateStack measures raw etcd and the bare apiserver at each level,
// each on fresh storage under dir.
func calibrateStack(ctx context.Context, r *runner.Runner, dir string, p *runner.Plan) (*results.Calibration, error) {
	clients, seconds := p.CalibrationClients, p.CalibrationSeconds
	d := time.Duration(seconds * float64(time.Second))
	cal := &results.Calibration{Seconds: seconds, EtcdSetup: etcdSetup, APIServerSetup: apiserverSetup}
	reader := calibrationReader(r.Opts.LabReader)
	if reader != stack.LabNone {
		cal.APIServerSetup += " This run prices the laboratory's etcd learner: rcbench bench -lab_reader=" + reader + " joined one to " +
			"each bare apiserver's cluster, as every scenario has, and nothing read it; these levels include its cost."
	}
	for _, n := range clients {
		if ctx.Err() != nil {
			return cal, ctx.Err()
		}
		l, err := calibrateEtcd(ctx, filepath.Join(dir, fmt.Sprintf("etcd-%d", n)), n, calibrationWarmup, d)
		if err != nil {
			return cal, err
		}
		r.Say("  %s", l)
		cal.Levels = append(cal.Levels, l)
	}
	for _, n := range clients {
		if ctx.Err() != nil {
			return cal, ctx.Err()
		}
		l, err := calibrateAPIServer(ctx, r.Opts.BinDir, filepath.Join(dir, fmt.Sprintf("apiserver-%d", n)), reader, n, calibrationWarmup, d)
		if err != nil {
			return cal, err
		}
		r.Say("  %s", l)
		cal.Levels = append(cal.Levels, l)
		if n == results.FloorClients {
			cal.CreateRate = l.PerSecond
		}
	}
	if reader == stack.LabNone && slices.Contains(clients, results.FloorClients) && ctx.Err() == nil {
		// The learner's price: the same level with the laboratory's
		// learner joined, as a run reading through it has it.
		l, err := calibrateAPIServer(ctx, r.Opts.BinDir, filepath.Join(dir, "apiserver-learner"), stack.LabLearner, results.FloorClients, calibrationWarmup, d)
		if err != nil {
			return cal, err
		}
		l.Target = results.TargetLearner
		r.Say("  %s", l)
		cal.Levels = append(cal.Levels, l)
	}
	if reader == stack.LabNone && p.WALPairs > 0 && slices.Contains(clients, results.FloorClients) && ctx.Err() == nil {
		pairs, err := readerPairs(ctx, r.Opts.BinDir, dir, p.WALPairs, results.FloorClients, calibrationWarmup, d)
		for i, pair := range pairs {
			r.Say("  the write-ahead log's reader, pair %d: %s pods/s without, %s with", i+1,
				results.FormatNumber(pair.Without.PerSecond), results.FormatNumber(pair.With.PerSecond))
		}
		cal.WALPairs, cal.WALPairsInOneLife = pairs, true
		cal.APIServerSetup += fmt.Sprintf(" %s Each level of a pair is measured for %g s.", readerPairsSetup(results.FloorClients), d.Seconds())
		if err != nil {
			return cal, err
		}
	}
	if p.ReferenceReplicas > 0 && ctx.Err() == nil {
		runs := p.RunsEach
		if runs < 1 {
			runs = 1
		}
		r.Settle(p)
		ref, err := referenceRuns(ctx, r.Opts.BinDir, filepath.Join(dir, "reference"), p.ReferenceReplicas, runs, r.Opts.Seed)
		if err != nil {
			return cal, fmt.Errorf("reference scale-up: %v", err)
		}
		r.Say("  reference scale-up of %d pods, no manager, %d clients, median of %d: all created after %.2f s, all running after %.2f s",
			ref.Replicas, results.FloorClients, runs, ref.CreateSeconds, ref.RunningSeconds)
		cal.Reference, cal.ReferenceSetup = &ref, referenceSetup
	}
	for _, path := range []string{results.ReadV04, results.ReadStored} {
		if !p.ListCosts {
			break
		}
		if ctx.Err() != nil {
			return cal, ctx.Err()
		}
		lc, err := calibrateList(ctx, r.Opts.BinDir, filepath.Join(dir, "list-"+path), path, r.Opts.Seed)
		if err != nil {
			return cal, fmt.Errorf("LIST of %d pods read %s: %v", runner.ListPods, path, err)
		}
		r.Say("  %s", lc)
		cal.ListCosts, cal.ListSetup = append(cal.ListCosts, lc), listSetup
	}
	return cal, nil
}

// calibrationReader is how the calibration's bare apiserver is read, for
// the benchmark's -lab_reader: by nothing, so with no learner, unless the
// learner is asked for by name, to price it.
func calibrationReader(labReader string) string {
	if labReader == stack.LabLearner || labReader == stack.LabLearnerNice {
		return labReader
	}
	return stack.LabNone
}
