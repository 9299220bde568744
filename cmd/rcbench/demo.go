package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/live"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// demoCommand runs talk mode: one scenario on both designs at once,
// narrated, with a live page (make demo SCENARIO=<name>).
func demoCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench demo", flag.ContinueOnError)
	name := fs.String("scenario", "", "The scenario to play (-list shows them).")
	showList := fs.Bool("list", false, "List the scenarios, each with how long it plays and what the audience sees, and exit.")
	auto := fs.Bool("auto", false, "Run every step without waiting for Enter; the results stay up until Enter or -hold.")
	hold := fs.Duration("hold", 0, "With the results up, stop after this long even without Enter (default: wait for Enter).")
	record := fs.String("record", "", "Record the run into this page (FILE.html), which plays it by itself in a browser from disk and which rcbench replay and rcbench deck read; a name ending in .json writes JSON instead.")
	size := fs.String("size", "talk", "talk (a few minutes at most, with the 2014 10 s period), quick, default or large (the benchmark's sizes).")
	port := fs.Int("port", 7014, "The live page's port on 127.0.0.1; another free one is used when it is taken.")
	bin := fs.String("bin", "", "Directory of the binaries (default: this program's own).")
	dir := fs.String("dir", "", "Directory for both clusters' data and logs (default: a temporary one, removed at the end).")
	replicas := fs.Int("replicas", 0, "Override the scenario's N (for rehearsals).")
	period := fs.Duration("period", 0, "Override the managers' sync period (default: 10 s, as 2014).")
	window := fs.Duration("window", 0, "Override how long the scenario watches a steady state or a fault.")
	without := fs.String("without", "", "Play today's manager without these changes of pkg/history (comma-separated, e.g. leader-election) on the left, instead of the 2014 one.")
	left := fs.String("left", "", "The variant on the left (default legacy, the 2014 manager): "+strings.Join(variantNames(), ", ")+".")
	commit := fs.String("commit", "", "The commit the binaries were built from, which a recording names (make publish gives it).")
	kubeconfig := fs.String("kubeconfig", "", "With -left or -right=cluster: play that side on the cluster this kubeconfig names, in a namespace of its own (-namespace), as rcbench bench -kubeconfig does: it refuses a namespace holding anything it did not create, and deletes only what it created.")
	namespace := fs.String("namespace", scenario.DefaultNamespace, "With -kubeconfig: the namespace the cluster side keeps to.")
	right := fs.String("right", "", "The variant on the right (default modern, today's design), as -left.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *showList {
		live.WriteList(os.Stdout)
		return 0
	}
	if *name == "" {
		fmt.Fprintln(os.Stderr, "rcbench demo: -scenario is required; the scenarios are:")
		live.WriteList(os.Stderr)
		return 2
	}
	if *bin == "" {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench demo: cannot find the binaries: %v\n", err)
			return 1
		}
		*bin = filepath.Dir(exe)
	}

	// Ctrl-C cancels the demo, which then stops both clusters before
	// returning. A second Ctrl-C is not caught: the process dies at once
	// and the kernel kills the components (they are started with a parent
	// death signal).
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	defer stop()

	_, err := live.Run(ctx, live.Options{
		Scenario:   *name,
		Size:       *size,
		Replicas:   *replicas,
		Period:     *period,
		Window:     *window,
		Auto:       *auto,
		Hold:       *hold,
		Record:     *record,
		Commit:     *commit,
		Without:    splitList(*without),
		Left:       *left,
		Right:      *right,
		Kubeconfig: *kubeconfig,
		Namespace:  *namespace,
		Addr:       fmt.Sprintf("127.0.0.1:%d", *port),
		BinDir:     *bin,
		Dir:        *dir,
		Out:        os.Stdout,
		In:         os.Stdin,
	})
	switch {
	case err == nil:
		fmt.Println("Both clusters stopped.")
		return 0
	case errors.Is(err, context.Canceled):
		fmt.Println("\nInterrupted: both clusters stopped.")
		return 130
	}
	fmt.Fprintf(os.Stderr, "rcbench demo: %v\n", err)
	return 1
}

// splitList splits a comma-separated flag value, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// variantNames lists the variants a side can play.
func variantNames() []string {
	var out []string
	for _, v := range scenario.Variants {
		out = append(out, v.Name)
	}
	return out
}
