package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/version"
)

// Runner runs one benchmark. Its function fields are the seams tests use
// to run the whole pipeline on synthetic outcomes, without clusters.
type Runner struct {
	Opts Options
	// Log receives progress lines (rcbench: stderr).
	Log io.Writer

	// Scenarios runs each scenario at its size: on real clusters, or in
	// tests a fake of synthetic outcomes.
	Scenarios ScenarioRunner
	// Calibrate measures the stack's ceiling before the scenarios of a
	// plan that asks for it (the bench run's calibration).
	Calibrate Calibrator
	// Now tells the time of the run's start, end and budget.
	Now func() time.Time
	// EtcdCluster starts an external etcd cluster of members under dir
	// for one run and returns its client URLs and how to stop it.
	EtcdCluster func(dir string, members int) (urls []string, read stack.ReadMember, stop func(), err error)
}

// ScenarioRunner runs one scenario of a variant at a size on a fresh
// cluster, as scenario.Run does.
type ScenarioRunner interface {
	Run(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error)
}

// clusters runs scenarios on real clusters.
type clusters struct{}

func (clusters) Run(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error) {
	return scenario.Run(ctx, sc, v, sz, opts)
}

// Calibrator measures the stack's ceiling into dir, at the levels p asks.
type Calibrator func(ctx context.Context, r *Runner, dir string, p *Plan) (*results.Calibration, error)

// New returns a runner of real clusters.
func New(opts Options, log io.Writer) *Runner {
	return &Runner{Opts: opts, Log: log, Scenarios: clusters{}, Now: time.Now, EtcdCluster: startEtcdCluster}
}

// Say writes a line of progress to Log.
func (r *Runner) Say(format string, args ...interface{}) {
	fmt.Fprintf(r.Log, format+"\n", args...)
}

// Publish copies the report's page named page in dir into Opts.Publish
// as ResultsFile, with its charts, when -publish asked for it; an
// interrupted run is not published.
func (r *Runner) Publish(dir, page string, interrupted bool) error {
	switch {
	case r.Opts.Publish == "":
		return nil
	case interrupted:
		r.Say("not published to %s: the run was interrupted", r.Opts.Publish)
		return nil
	}
	if err := report.PublishPage(dir, page, r.Opts.Publish); err != nil {
		return err
	}
	if page == report.ResultsFile {
		r.Say("published %s to %s", page, r.Opts.Publish)
	} else {
		r.Say("published %s to %s as %s", page, r.Opts.Publish, report.ResultsFile)
	}
	return nil
}

// Commit names the source of the binaries: -commit, else rcbench's own
// build information.
func (r *Runner) Commit() string {
	if r.Opts.Commit != "" {
		return r.Opts.Commit
	}
	return buildCommit()
}

// Settle removes two causes of a slow first run. It reads every binary a
// run starts, so that no run waits for one to come from disk, and it
// flushes the page cache's dirty pages, so that the calibration's
// hundreds of megabytes of fsynced etcd writes, deleted but still being
// written back, do not compete with the first run's own writes.
func (r *Runner) Settle(p *Plan) {
	names := []string{"apiserver", "hollow-node"}
	for _, it := range p.Items {
		for _, v := range it.Variants {
			names = append(names, v.Binary())
		}
	}
	slices.Sort(names)
	for _, name := range slices.Compact(names) {
		os.ReadFile(filepath.Join(r.Opts.BinDir, name))
	}
	syscall.Sync()
}

// LinkLatest points <out>/latest at dir.
func LinkLatest(out, dir string) {
	link := filepath.Join(out, "latest")
	os.Remove(link)
	os.Symlink(filepath.Base(dir), link)
}

// Start defaults the seed and makes the run's timestamped directory under
// Opts.Out, which latest then points at.
func (r *Runner) Start() (time.Time, string, error) {
	if r.Opts.Seed == 0 {
		r.Opts.Seed = DefaultSeed
	}
	started := r.Now()
	dir := filepath.Join(r.Opts.Out, started.Format("20060102-150405"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return started, "", err
	}
	LinkLatest(r.Opts.Out, dir)
	return started, dir, nil
}

// buildCommit is the commit rcbench was built from, with "-dirty" when
// the tree had changes, or "" when the build recorded none.
func buildCommit() string {
	v := version.Get()
	if v.GitCommit == "" {
		return ""
	}
	if v.GitTreeState == "dirty" {
		return v.GitCommit + "-dirty"
	}
	return v.GitCommit
}
