package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/listcost"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

// binaryName is what may name a binary on the page: a commit (30b99bc,
// 30b99bc-dirty) or a variant, never a path or a remark such as one
// about when it was built, which a reader elsewhere could not check.
var binaryName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// listCostPods is how many pods the apiserver holds by default when
// rcbench listcost times a LIST of every one.
const listCostPods = 150000

// listCostCommand measures what a LIST of every pod costs the apiserver,
// for this tree's apiserver and any others given with -vs.
func listCostCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench listcost", flag.ContinueOnError)
	pods := fs.Int("pods", listCostPods, "Pods the apiserver holds.")
	lists := fs.Int("lists", 10, "LISTs of every pod, timed one after the other.")
	bin := fs.String("bin", "_output/bin", "Directory of the binaries (make build).")
	vs := fs.String("vs", "", "Other apiserver binaries to measure the same way after it, comma-separated NAME=DIR (DIR holds an apiserver; NAME, the commit or variant it was built from, names it on the page, and DIR stays off the page), e.g. 30b99bc=../old/bin.")
	profile := fs.Bool("profile", false, "Save a CPU profile of the LISTs after the first, and the allocations of all of them, for binaries with -profiling_address.")
	out := fs.String("out", "_output/listcost", "Parent of the timestamped report directory; <out>/latest points at the newest.")
	publish := fs.String("publish", "", "Also copy "+report.ResultsFile+" into this directory (e.g. examples/listcost).")
	commit := fs.String("commit", "", "The commit the first binary was built from, which names it on the page (default: rcbench's build information).")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *pods < 1 || *lists < 1 {
		fmt.Fprintf(os.Stderr, "rcbench listcost: -pods and -lists must be at least 1, and no arguments follow the flags\n")
		return 2
	}
	first := *commit
	if first == "" {
		first = runner.New(runner.Options{}, io.Discard).Commit()
	}
	if first == "" {
		first = "unknown-commit"
	}
	var bins []listcost.Binary
	for i, entry := range append([]string{first + "=" + *bin}, strings.Split(*vs, ",")...) {
		if entry == "" {
			continue
		}
		name, d, ok := strings.Cut(entry, "=")
		if !ok {
			name, d = fmt.Sprintf("binary-%d", i+1), entry
		}
		if !binaryName.MatchString(name) {
			fmt.Fprintf(os.Stderr, "rcbench listcost: %q does not name a binary by the commit or variant it was built from (letters, digits, '.', '-', '_'), as the page prints it\n", name)
			return 2
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench listcost: %v\n", err)
			return 2
		}
		if _, err := os.Stat(filepath.Join(abs, "apiserver")); err != nil {
			fmt.Fprintf(os.Stderr, "rcbench listcost: no apiserver binary in %s (make build, or go build -o DIR/ ./cmd/apiserver)\n", d)
			return 2
		}
		bins = append(bins, listcost.Binary{Name: name, Dir: abs})
	}
	ctx, cancel := interruptible()
	defer cancel()
	opts := runner.Options{Out: *out, BinDir: bins[0].Dir, Publish: *publish, Commit: *commit}
	dir, _, err := listcost.Run(ctx, runner.New(opts, os.Stderr), listcost.Options{Pods: *pods, Lists: *lists, Binaries: bins, Profile: *profile})
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench listcost: %v\n", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "report: %s\n", filepath.Join(dir, report.ResultsFile))
	return 0
}
