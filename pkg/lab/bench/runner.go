package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/version"
)

// DefaultSeed is the hollow nodes' seed unless Options.Seed says another.
const DefaultSeed = 2014

// Runner runs one benchmark. Its function fields are the seams tests use
// to run the whole pipeline on synthetic outcomes, without clusters.
type Runner struct {
	Opts Options
	// Log receives progress lines (rcbench: stderr).
	Log io.Writer

	runScenario func(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error)
	calibrate   func(ctx context.Context, dir string, p *Plan) (*Calibration, error)
	now         func() time.Time
	// etcdCluster starts an external etcd cluster of members under dir
	// for one run and returns its client URLs and how to stop it.
	etcdCluster func(dir string, members int) (urls []string, stop func(), err error)
}

// NewRunner returns a runner of real clusters.
func NewRunner(opts Options, log io.Writer) *Runner {
	r := &Runner{Opts: opts, Log: log, runScenario: scenario.Run, now: time.Now, etcdCluster: startEtcdCluster}
	r.calibrate = r.calibrateStack
	return r
}

func (r *Runner) say(format string, args ...interface{}) {
	fmt.Fprintf(r.Log, format+"\n", args...)
}

// Run measures everything the options ask for and writes the report into
// a new timestamped directory under Opts.Out, which it returns. When ctx
// ends (Ctrl-C) the run in progress is stopped, its cluster killed, and a
// report of what finished is still written, marked as interrupted.
func (r *Runner) Run(ctx context.Context) (string, *Summary, error) {
	p, err := BuildPlan(r.Opts)
	if err != nil {
		return "", nil, err
	}
	started, dir, err := r.start()
	if err != nil {
		return "", nil, err
	}

	sum := &Summary{Started: started, Notes: p.Notes, Choices: p.Choices, Commit: r.commit()}
	sum.Machine = Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, LoadBefore: loadAverage()}
	sum.Machine.FileLimit = stack.RaiseFileLimit()
	sum.Options.Runs = p.RunsEach
	sum.Options.Quick, sum.Options.Large, sum.Options.Seed = r.Opts.Quick, r.Opts.Large, r.Opts.Seed
	sum.Options.Sweep = r.Opts.Sweep
	sum.Options.Scenarios, sum.Options.Variants = planNames(p)
	for _, n := range p.Notes {
		r.say("note: %s", n)
	}
	r.say("benchmark: %d scenario runs%s, output in %s", p.Runs(), map[bool]string{true: " after calibration", false: ""}[p.Calibrate], dir)

	if p.Calibrate && ctx.Err() == nil {
		say := fmt.Sprintf("calibrate: the stack's ceiling, raw etcd writes and apiserver pod POSTs at %v clients, %.0f s each", p.CalibrationClients, p.CalibrationSeconds)
		if p.ListCosts {
			say += fmt.Sprintf(", and a LIST of %d pods read both ways", ListPods)
		}
		r.say("%s", say)
		cal, err := r.calibrate(ctx, filepath.Join(dir, "calibrate"), p)
		if err != nil {
			sum.Notes = append(sum.Notes, fmt.Sprintf("The calibration failed (%v), so there is no create floor to compare with.", err))
			r.say("calibrate: failed: %v", err)
		}
		sum.Calibration = cal
		os.RemoveAll(filepath.Join(dir, "calibrate"))
	}

	r.settle(p)
	runs, skipped := r.runItems(ctx, dir, p, sum.Machine.CPUs)
	sum.Skipped = skipped
	if ctx.Err() != nil {
		sum.Interrupted = true
		sum.Notes = append(sum.Notes, fmt.Sprintf("Interrupted after %d of %d runs: the figures below are of the runs that finished.", countOK(runs), p.Runs()))
		r.say("interrupted: writing a report of the %d runs that finished", countOK(runs))
	}

	sum.Scenarios, sum.Failures = aggregate(p, runs)
	sum.Lab = labRuns(runs)
	sum.Profiles = runProfiles(runs)
	sum.Machine.LoadAfter = loadAverage()
	sum.Findings = findings(sum)
	sum.Finished = r.now()
	sum.Seconds = sum.Finished.Sub(started).Seconds()
	if err := writeReport(dir, sum, p, runs, r.Opts.PNG); err != nil {
		return dir, sum, err
	}
	linkLatest(r.Opts.Out, dir)
	if err := r.publish(dir, ResultsFile, sum.Interrupted); err != nil {
		return dir, sum, err
	}
	return dir, sum, nil
}

// publish copies the report's page named page in dir into Opts.Publish
// as ResultsFile, with its charts, when -publish asked for it; an
// interrupted run is not published.
func (r *Runner) publish(dir, page string, interrupted bool) error {
	switch {
	case r.Opts.Publish == "":
		return nil
	case interrupted:
		r.say("not published to %s: the run was interrupted", r.Opts.Publish)
		return nil
	}
	if err := publishPage(dir, page, r.Opts.Publish); err != nil {
		return err
	}
	if page == ResultsFile {
		r.say("published %s to %s", page, r.Opts.Publish)
	} else {
		r.say("published %s to %s as %s", page, r.Opts.Publish, ResultsFile)
	}
	return nil
}

// commit names the source of the binaries: -commit, else rcbench's own
// build information.
func (r *Runner) commit() string {
	if r.Opts.Commit != "" {
		return r.Opts.Commit
	}
	return buildCommit()
}

// runOne runs a scenario once in its own directory and keeps its samples.
func (r *Runner) runOne(ctx context.Context, dir string, it Item, v scenario.Variant, i, n, total int, limit time.Duration) RunRecord {
	rel := filepath.Join("runs", fmt.Sprintf("%s_%s_%s_%d", it.Scenario.Name, slug(it.Size.Label), v.Name, i+1))
	runDir := filepath.Join(dir, rel)
	rec := RunRecord{Scenario: it.Scenario.Name, Size: it.Size, Variant: v.Name, Index: i, Dir: rel}
	r.say("[%*d/%d] %s %s %s, run %d of %d", len(strconv.Itoa(total)), n, total, it.Scenario.Name, it.Size.Label, v.Name, i+1, it.Runs)
	began := r.now()
	runCtx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	sopts := scenario.Options{
		BinDir:  r.Opts.BinDir,
		Dir:     runDir,
		Seed:    r.Opts.Seed,
		Profile: r.Opts.Profile,
		Say:     func(format string, args ...interface{}) { r.say("        "+format, args...) },
	}
	sopts.OriginalDir = r.Opts.originalDir()
	var out *scenario.Outcome
	urls, stopEtcd, err := r.externalEtcd(runDir, it.EtcdMembers)
	if err == nil {
		sopts.EtcdServers = urls
		out, err = r.runScenario(runCtx, it.Scenario, v, it.Size, sopts)
		stopEtcd()
	}
	rec.Seconds = r.now().Sub(began).Seconds()
	// The etcd data of a finished run is of no further use and can take
	// hundreds of megabytes; the logs stay beside the samples.
	os.RemoveAll(filepath.Join(runDir, "etcd"))
	os.RemoveAll(filepath.Join(runDir, "etcd3"))
	if err != nil && limit > 0 && ctx.Err() == nil && runCtx.Err() == context.DeadlineExceeded {
		rec.TimedOut = true
		err = fmt.Errorf("not finished within its limit of %s: %v", formatDuration(limit), err)
	}
	rec.Lab = labShare(out)
	if profiles, perr := summarizeProfiles(rec, out, dir); perr != nil {
		r.say("        cannot read the profiles: %v", perr)
	} else {
		rec.Profiles = profiles
	}
	os.RemoveAll(filepath.Join(runDir, "profiles"))
	if rec.Lab != nil && rec.Lab.Saturated != "" {
		r.say("        the laboratory was saturated: %s", rec.Lab.Saturated)
	}
	if err != nil {
		rec.Err = err.Error() + exhaustion(runDir)
		if rec.Lab != nil && rec.Lab.Saturated != "" {
			rec.Err += "; the laboratory was saturated (" + rec.Lab.Saturated + "), so the failure is not the design's"
		}
		r.say("        failed after %.1f s: %v", rec.Seconds, err)
		return rec
	}
	rec.Outcome = out
	if err := writeSamples(filepath.Join(runDir, "samples.csv"), out); err != nil {
		r.say("        cannot write the samples: %v", err)
	}
	rs, _ := results(out)
	var parts []string
	for _, res := range rs {
		parts = append(parts, fmt.Sprintf("%s=%s", res.Name, formatValue(res.Value, res.Unit)))
	}
	r.say("        %.1f s: %s", rec.Seconds, strings.Join(parts, ", "))
	return rec
}

// settle removes two causes of a slow first run. It reads every binary a
// run starts, so that no run waits for one to come from disk, and it
// flushes the page cache's dirty pages, so that the calibration's
// hundreds of megabytes of fsynced etcd writes, deleted but still being
// written back, do not compete with the first run's own writes.
func (r *Runner) settle(p *Plan) {
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

func countOK(runs []RunRecord) int {
	n := 0
	for _, r := range runs {
		if r.Outcome != nil {
			n++
		}
	}
	return n
}

// planNames lists the scenarios and variants of a plan, in order.
func planNames(p *Plan) (scenarios, variants []string) {
	seenS, seenV := map[string]bool{}, map[string]bool{}
	if p.Calibrate {
		scenarios = append(scenarios, Calibrate)
	}
	for _, it := range p.Items {
		if !seenS[it.Scenario.Name] {
			seenS[it.Scenario.Name] = true
			scenarios = append(scenarios, it.Scenario.Name)
		}
		for _, v := range it.Variants {
			if !seenV[v.Name] {
				seenV[v.Name] = true
				variants = append(variants, v.Name)
			}
		}
	}
	return scenarios, variants
}

// linkLatest points <out>/latest at dir.
func linkLatest(out, dir string) {
	link := filepath.Join(out, "latest")
	os.Remove(link)
	os.Symlink(filepath.Base(dir), link)
}

// loadAverage reads the 1, 5 and 15 minute load averages (zeros where
// /proc/loadavg cannot be read).
func loadAverage() [3]float64 {
	var l [3]float64
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return l
	}
	fields := strings.Fields(string(data))
	for i := 0; i < 3 && i < len(fields); i++ {
		l[i], _ = strconv.ParseFloat(fields[i], 64)
	}
	return l
}

// slug makes a size label safe for file names and benchmark names.
func slug(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.ContainsRune("=,.+-", c):
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// start defaults the seed and makes the run's timestamped directory under
// Opts.Out, which latest then points at.
func (r *Runner) start() (time.Time, string, error) {
	if r.Opts.Seed == 0 {
		r.Opts.Seed = DefaultSeed
	}
	started := r.now()
	dir := filepath.Join(r.Opts.Out, started.Format("20060102-150405"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return started, "", err
	}
	linkLatest(r.Opts.Out, dir)
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
