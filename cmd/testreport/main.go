// Command testreport reports on the tests themselves. `testreport skips
// FILE.json...` lists every test that skipped in go test -json files, with
// its reason (make test runs it at its end); with -allowed it fails on a
// skip that no other file ran and the allow-list does not name (.ci/run
// runs it so). `testreport mutate` runs gremlins over the subject packages
// and writes the page of their mutation scores (make mutate runs it).
// `testreport failures FILE.json...` prints each test that failed with
// its last messages, the logs it attached left out (make test prints them
// just before its last line). `testreport run -bin=DIR [go test flags]
// packages...` runs tests as `go test -json` does, keeping each package's
// test binary in DIR so that the next run links only what changed (make
// test runs its builds so); `testreport build` with the same arguments
// only links them (make test does that first, for both builds).
//
// Ours: not part of 2014.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/kube-rewind/kube-rewind/pkg/lab/testreport"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: testreport skips [-allowed=FILE] FILE.json...\n       testreport failures FILE.json...\n       testreport mutate [flags] (testreport mutate -h lists them)\n"+
		"       testreport run -bin=DIR [go test flags] [packages]\n       testreport build -bin=DIR [go test flags] [packages]\n")
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "skips":
		os.Exit(skips(os.Args[2:]))
	case "failures":
		os.Exit(failures(os.Args[2:]))
	case "mutate":
		os.Exit(mutate(os.Args[2:]))
	case "run", "build":
		os.Exit(run(os.Args[1], os.Args[2:]))
	default:
		usage()
	}
}

// module is this module's path, trimmed from the packages printed.
func module() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Main.Path
	}
	return ""
}

func skips(args []string) int {
	fs := flag.NewFlagSet("skips", flag.ExitOnError)
	allowedFile := fs.String("allowed", "", "An allow-list of skips (<package> <test> <why>, one a line): fail on any skip it does not name and no other file ran.")
	fs.Parse(args)
	if fs.NArg() == 0 {
		usage()
	}
	skips, err := testreport.Skips(module(), fs.Args())
	if err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		return 1
	}
	allowed := map[string]string{}
	if *allowedFile != "" {
		f, err := os.Open(*allowedFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			return 1
		}
		allowed, err = testreport.Allowed(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %s: %v\n", *allowedFile, err)
			return 1
		}
	}
	bad := testreport.Check(skips, allowed)
	fmt.Printf("== %d tests skipped\n", len(skips))
	testreport.WriteSkips(os.Stdout, skips)
	if *allowedFile != "" && len(bad) > 0 {
		fmt.Printf("== %d skipped where no other run ran them and %s does not allow it:\n", len(bad), *allowedFile)
		testreport.WriteSkips(os.Stdout, bad)
		return 1
	}
	return 0
}

func failures(files []string) int {
	if len(files) == 0 {
		usage()
	}
	failed, err := testreport.Failures(module(), files)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		return 1
	}
	if len(failed) > 0 {
		fmt.Printf("== what the %d failed test(s) and package(s) said last, their logs left out\n", len(failed))
		testreport.WriteFailures(os.Stdout, failed)
	}
	return 0
}

// run runs tests as go test -json does, the test binaries kept in -bin
// (testreport.Run): its first argument is -bin=DIR, the rest go test's.
// With build, it only builds them (testreport.Build).
func run(name string, args []string) int {
	if len(args) == 0 || !strings.HasPrefix(args[0], "-bin=") {
		usage()
	}
	o, err := testreport.SplitFlags(args[1:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "testreport %s: %v\n", name, err)
		return 2
	}
	o.Bin, o.Go, o.Out = strings.TrimPrefix(args[0], "-bin="), "go", os.Stdout
	if g := os.Getenv("GO"); g != "" {
		o.Go = g
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	do := testreport.Run
	if name == "build" {
		do = testreport.Build
	}
	if err := do(ctx, o); err != nil {
		fmt.Fprintf(os.Stderr, "testreport %s: %v\n", name, err)
		return 1
	}
	return 0
}

// targets are the packages make mutate mutates: the subject's, and the
// crash checker. Those whose surviving mutants must each be explained say
// so.
var targets = []testreport.Target{
	{Dir: "pkg/controller", Explain: true},
	{Dir: "pkg/service"},
	{Dir: "pkg/apiserver"},
	{Dir: "pkg/registry"},
	{Dir: "pkg/tools"},
	{Dir: "pkg/lab/scenario/acked", Explain: true},
}

func mutate(args []string) int {
	fs := flag.NewFlagSet("mutate", flag.ExitOnError)
	out := fs.String("out", "examples/mutation", "The folder of the page (RESULTS.md), its results (results.json) and the reasons survivors live (survivors.txt).")
	work := fs.String("work", "_output/mutate", "A scratch folder for the copy of the tree gremlins mutates.")
	gremlins := fs.String("gremlins", "go run github.com/go-gremlins/gremlins/cmd/gremlins@v0.6.0", "The command that runs gremlins.")
	coefficient := fs.Int("timeout_coefficient", 10, "Each mutant's test run is stopped, as hung, after this many times the unmutated run's time.")
	commit := fs.String("commit", "", "The commit the page names.")
	packages := fs.String("packages", "", "Mutate only these package folders (comma-separated, e.g. pkg/controller); the others' published results are kept.")
	pageOnly := fs.Bool("page", false, "Run nothing: write the page again from results.json and survivors.txt.")
	fs.Parse(args)

	resultsFile := filepath.Join(*out, "results.json")
	var old []testreport.Result
	if data, err := os.ReadFile(resultsFile); err == nil {
		if err := json.Unmarshal(data, &old); err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %s: %v\n", resultsFile, err)
			return 1
		}
	}
	results := old
	if !*pageOnly {
		var chosen []testreport.Target
		for _, t := range targets {
			if *packages == "" || strings.Contains(","+*packages+",", ","+t.Dir+",") {
				chosen = append(chosen, t)
			}
		}
		if len(chosen) == 0 {
			fmt.Fprintf(os.Stderr, "testreport: no package of %q is mutated\n", *packages)
			return 2
		}
		root, _ := os.Getwd()
		// Each build's result is written as soon as it is in: a run
		// stopped halfway (they take hours) keeps what it finished.
		var done []testreport.Result
		save := func(r testreport.Result) error {
			done = append(done, r)
			results = testreport.Merge(old, done)
			data, _ := json.MarshalIndent(results, "", "  ")
			return os.WriteFile(resultsFile, append(data, '\n'), 0o644)
		}
		if _, err := testreport.Mutate(testreport.MutateOptions{
			Root: root, Work: *work, Gremlins: strings.Fields(*gremlins), Coefficient: *coefficient,
			Commit: *commit, Targets: chosen, Log: os.Stdout, Done: save,
		}); err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			return 1
		}
	}
	var explanations []testreport.Explanation
	if f, err := os.Open(filepath.Join(*out, "survivors.txt")); err == nil {
		explanations, err = testreport.ReadExplanations(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: survivors.txt: %v\n", err)
			return 1
		}
	}
	page, err := os.Create(filepath.Join(*out, "RESULTS.md"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		return 1
	}
	testreport.WritePage(page, results, explanations)
	if err := page.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		return 1
	}
	for _, r := range results {
		fmt.Printf("%s %s: %.0f %% of %d mutants caught\n", r.Name(), r.Build, 100*r.Caught(), r.Counts[testreport.Killed]+r.Counts[testreport.TimedOut]+r.Counts[testreport.Lived]+r.Counts[testreport.NotCovered])
	}
	if bad := testreport.Unexplained(results, explanations); len(bad) > 0 {
		fmt.Printf("%d mutants live unexplained where each must be explained (add them to %s):\n", len(bad), filepath.Join(*out, "survivors.txt"))
		for _, m := range bad {
			fmt.Printf("%s | %s | %d | %s | \n", m.File, m.Mutator, m.Column, m.Code)
		}
		return 1
	}
	return 0
}
