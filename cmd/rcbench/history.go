package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

// historyCommand runs make history: every change of pkg/history with and
// without it, and the timeline.
func historyCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench history", flag.ContinueOnError)
	runs := fs.Int("runs", 0, "Runs of each change's scenario, both ways (default 2, 1 for N=1000 and the timeline; 1 with -quick).")
	quick := fs.Bool("quick", false, "Smaller sizes, shorter windows and a timeline by year: done in about 3 minutes.")
	out := fs.String("out", "_output/history", "Parent of the timestamped report directory; <out>/latest points at the newest.")
	bin := fs.String("bin", "_output/bin", "Directory of the binaries (make build).")
	png := fs.Bool("png", false, "Also render the timeline chart as PNG.")
	seed := fs.Int64("seed", runner.DefaultSeed, "Seed of the hollow nodes' random choices, the same in every run.")
	publish := fs.String("publish", "", "Also copy report.md, as "+report.ResultsFile+", and its chart into this directory (e.g. examples/history), unless the run is interrupted.")
	commit := fs.String("commit", "", "The source the binaries were built from, for the report (make history passes git describe).")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rcbench history: unexpected arguments %q\n", fs.Args())
		return 2
	}
	binDir, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench history: %v\n", err)
		return 2
	}
	opts := runner.Options{Runs: *runs, Quick: *quick, Out: *out, BinDir: binDir, PNG: *png, Seed: *seed, Publish: *publish, Commit: *commit}

	ctx, cancel := interruptible()
	defer cancel()

	began := time.Now()
	dir, hs, err := history.Run(ctx, runner.New(opts, os.Stderr))
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench history: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "\nfinished in %.0f s\n\n%s\n", time.Since(began).Seconds(), report.HistoryTable(hs))
	fmt.Fprintf(os.Stderr, "report: %s\n        %s\n", filepath.Join(dir, "report.html"), filepath.Join(dir, "report.md"))
	if hs.Interrupted {
		return 130
	}
	if len(hs.Failures) > 0 {
		return 1
	}
	return 0
}
