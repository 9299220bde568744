package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/sweep"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// benchCommand runs make bench: flags, Ctrl-C, and where the report went.
func benchCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench bench", flag.ContinueOnError)
	scenarios := fs.String("scenarios", "", fmt.Sprintf("Comma-separated scenarios to run at their standard sizes, %q included, or %q for every one (default: %s, some of them shortened to fit 10 minutes; with -quick: %s; known: %s).",
		runner.Calibrate, bench.All, strings.Join(bench.DefaultScenarios(false), ","), strings.Join(bench.DefaultScenarios(true), ","), strings.Join(scripts.Names(), ",")))
	variants := fs.String("variants", "", "Comma-separated variants (default: legacy, modern and modern-unthrottled where the client throttle can matter, legacy and modern elsewhere; today's stack runs scale-up and idle only): "+scenario.Help()+".")
	runs := fs.Int("runs", 0, "Runs of each scenario, size and variant (default 3, or 1 with -quick).")
	quick := fs.Bool("quick", false, "Quick sizes and selection: about 2 minutes.")
	large := fs.Bool("large", false, "Add the largest sizes (N=10 000).")
	sweepFlag := fs.Bool("sweep", false, "Run scale-up and idle over a range of cluster sizes (100 to 100 000 pods; with -quick 100 to 1 000, under 5 minutes) for legacy and modern-unthrottled, and the scale-ups of stack-original-parity and stack-today-unthrottled where make original and make today have built them, and draw each cost against size with each design's breaking point; both designs' scale-up at the largest size runs first, and a design's larger sizes are not run once it breaks. A full sweep stops within 72 minutes.")
	etcd3 := fs.Bool("etcd3", false, "With -sweep: also run idle and scale-up at 3 000 pods (-quick: 1 000), after every other point, with the apiserver on a three-member external etcd cluster (etcd 3.4, e.g. Debian's etcd-server, with the v2 API), started on loopback for each run and deleted after it.")
	sizes := fs.String("sizes", "", "With -sweep: only these pod counts, comma-separated (e.g. 100000), to run one point of the sweep alone; with -scenarios=scale-up or idle, and -variants, only that scenario and design.")
	profile := fs.Bool("profile", false, "Take CPU profiles of the apiserver and the hollow nodes in every run, and put the top entries of the span each run measures (idle's window, a scale-up's creation to convergence) on the page; the merged profiles stay in the run directories.")
	out := fs.String("out", "_output/bench", "Parent of the timestamped report directory; <out>/latest points at the newest.")
	bin := fs.String("bin", "_output/bin", "Directory of the binaries (make build).")
	png := fs.Bool("png", false, "Also render every chart as PNG.")
	seed := fs.Int64("seed", runner.DefaultSeed, "Seed of the hollow nodes' random choices, the same in every run.")
	commit := fs.String("commit", "", "The commit the binaries were built from, for the results page (make bench: git describe; default: rcbench's build information).")
	publish := fs.String("publish", "", "Also copy "+report.ResultsFile+" and the chart it draws into this directory (e.g. examples/bench), unless the run is interrupted.")
	labReader := fs.String("lab_reader", "", "How the laboratory reads pods. The default: wal, a reader of the write-ahead log of a member the apiserver stores in, in a process of its own, read-only, which joins nothing and costs the member nothing: the member the stack runs (ours, today's and v0.4's), or the last of the three members of -etcd3's cluster, which it asks what it has applied (a member of several saves the commit of a burst's last entries only with its next write); learner elsewhere (members known by address only). Or, to compare them with it: learner (an etcd learner in a process of its own), learner-nice (the same at nice 10, so that it applies what the apiserver and managers leave of the cores), members (the members the apiserver stores in, directly, as before the learner; in a burst of over 1 000 writes it may fall out of etcd's window, and a run says so) and, on today's stack, apiserver-watch (a watch of kube-apiserver, which any of the others also gives there). -lab_reader=learner or learner-nice also gives the calibration's bare apiserver a learner, which it otherwise has not.")
	kubeconfig := fs.String("kubeconfig", "", "With -variants=cluster (beside others or alone): run the scenarios of today's side (scale-up, idle) on the cluster this kubeconfig names, whose nodes may be KWOK's or real. The run keeps to a namespace of its own (-namespace), refuses one that holds anything it did not create, and deletes only what it created; it measures from outside what it can (pods, the apiserver's /metrics) and leaves the managers' figures out.")
	namespace := fs.String("namespace", scenario.DefaultNamespace, "With -kubeconfig: the namespace the runs create their objects in, created and deleted by them unless it exists (and holds nothing) already.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rcbench bench: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *labReader != "" && !slices.Contains(stack.LabReaders, *labReader) {
		fmt.Fprintf(os.Stderr, "rcbench bench: -lab_reader=%q: want one of %s\n", *labReader, strings.Join(stack.LabReaders, ", "))
		return 2
	}
	binDir, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench bench: %v\n", err)
		return 2
	}
	var sweepSizes []int
	for _, part := range splitList(*sizes) {
		n, err := strconv.Atoi(part)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "rcbench bench: -sizes: %q is not a pod count\n", part)
			return 2
		}
		sweepSizes = append(sweepSizes, n)
	}
	opts := runner.Options{
		Scenarios:  splitList(*scenarios),
		Variants:   splitList(*variants),
		Runs:       *runs,
		Quick:      *quick,
		Large:      *large,
		Etcd3:      *etcd3,
		SweepSizes: sweepSizes,
		Profile:    *profile,
		Out:        *out,
		BinDir:     binDir,
		PNG:        *png,
		Seed:       *seed,
		Commit:     *commit,
		Publish:    *publish,
		LabReader:  *labReader,
		Kubeconfig: *kubeconfig,
		Namespace:  *namespace,
	}

	ctx, cancel := interruptible()
	defer cancel()

	began := time.Now()
	// A sweep is its own run, with its own plan; both write the
	// benchmark's report.
	run := bench.Run
	if *sweepFlag {
		run = sweep.Run
	}
	dir, sum, err := run(ctx, runner.New(opts, os.Stderr))
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench bench: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "\nfinished in %.0f s\n", time.Since(began).Seconds())
	for _, n := range sum.Notes {
		fmt.Fprintf(os.Stderr, "NOTE: %s\n", n)
	}
	for _, f := range sum.Findings {
		holds := "  "
		if f.Holds != nil {
			holds = map[bool]string{true: "ok", false: "NO"}[*f.Holds]
		}
		fmt.Fprintf(os.Stderr, "[%s] %s: %s\n", holds, f.Topic, f.Verdict)
		if f.Why != "" {
			fmt.Fprintf(os.Stderr, "     why not: %s\n", f.Why)
		}
	}
	fmt.Fprintf(os.Stderr, "\nreport: %s\n        %s\n        %s\n", filepath.Join(dir, "report.html"), filepath.Join(dir, "report.md"), filepath.Join(dir, report.ResultsFile))
	return exitCode(sum)
}

// exitCode is the benchmark's exit status: 130 when interrupted, 1 when
// a run failed, 0 otherwise. In a sweep a failed run is how a design's
// breaking point shows, which the page names with its cause: the sweep
// did what it was asked, and exits 0.
func exitCode(sum *results.Summary) int {
	switch {
	case sum.Interrupted:
		return 130
	case len(sum.Failures) > 0 && !sum.Options.Sweep:
		return 1
	}
	return 0
}

// interruptible returns a context that the first Ctrl-C (or SIGTERM)
// cancels, so the run in progress stops (its cluster is killed) and what
// finished is still written; a second one leaves at once, and the
// clusters' processes die with this one.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-signals
		fmt.Fprintln(os.Stderr, "\nstopping: killing the running cluster and writing what finished (Ctrl-C again to quit at once)")
		cancel()
		<-signals
		os.Exit(130)
	}()
	return ctx, cancel
}
