package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/sweep"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo/live"
	"github.com/kube-rewind/kube-rewind/pkg/lab/publish"
	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// publishCommand runs make publish: every published page at one commit,
// or -plan to print what it would run, or -readme to rewrite the
// README's lines about the pages alone.
func publishCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench publish", flag.ContinueOnError)
	pages := fs.String("pages", "", "Only these pages, comma-separated (known: "+strings.Join(published.Names(), ", ")+"); default every one.")
	plan := fs.Bool("plan", false, "Print the plan (each page, whether it is published at this commit already, how long it should take) and exit, running nothing.")
	redo := fs.Bool("redo", false, "Run the selected pages again even where they were published at this commit.")
	readme := fs.Bool("readme", false, "Only rewrite what the prose says of the published pages, and exit: the README's lines about them (from their stamps and git) and its sentence of what each showed, and every figure a Markdown file cites.")
	check := fs.Bool("check", false, "Only check the prose: every figure cited in a Markdown file shows what its page says, and no figure there looks measured without citing a page (the allow-list's constants aside); exit non-zero naming each that does not.")
	cite := fs.Bool("cite", false, "Only write every figure the Markdown files cite from the committed pages, and exit.")
	only := fs.String("only", "", "With -check or -cite: only these Markdown files, comma-separated, relative to the top.")
	root := fs.String("root", ".", "The repository's top.")
	bin := fs.String("bin", "_output/bin", "Directory of the binaries (make build), rcbench among them.")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rcbench publish: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *check {
		return checkProse(*root, splitList(*only))
	}
	if *cite {
		changed, err := published.FillProse(*root, splitList(*only)...)
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "rcbench publish: the figures cited in %d Markdown file(s) rewritten from their pages%s\n", len(changed), listed(changed))
		return 0
	}
	if *readme {
		changed, err := publish.UpdateProse(*root, "")
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "rcbench publish: what the prose says of the published pages rewritten in %d file(s)%s\n", len(changed), listed(changed))
		return 0
	}
	commit, err := published.Git(*root, "rev-parse", "--short", "HEAD")
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
		return 1
	}
	binDir, err := filepath.Abs(*bin)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
		return 2
	}
	opts := publish.Options{
		Root: *root, Commit: commit, Pages: splitList(*pages), Redo: *redo,
		Estimate: estimateOf(*root, binDir), Log: os.Stderr,
		Runner: &rcbenchRunner{rcbench: filepath.Join(binDir, "rcbench"), dir: *root, log: os.Stderr},
	}
	dirty, err := publish.Dirty(*root)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
		return 1
	}
	if *plan {
		p, err := publish.Plan(opts)
		if err != nil {
			fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
			return 2
		}
		publish.WritePlan(os.Stdout, commit, p)
		if len(dirty) > 0 {
			fmt.Printf("the tree is not clean (%s): make publish would refuse to start\n", strings.Join(dirty, ", "))
		}
		return 0
	}
	if len(dirty) > 0 {
		fmt.Fprintf(os.Stderr, "rcbench publish: the tree has changes outside the published pages (%s): commit or stash them, so that every page is measured at one commit\n", strings.Join(dirty, ", "))
		return 1
	}
	ctx, cancel := interruptible()
	defer cancel()
	if err := publish.Publish(ctx, opts); err != nil {
		fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
		return 1
	}
	return 0
}

// checkProse is rcbench publish -check.
func checkProse(root string, only []string) int {
	constants, err := publish.Constants(root)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench publish: the allow-list: %v\n", err)
		return 1
	}
	drifts, err := published.CheckProse(root, constants, only...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench publish: %v\n", err)
		return 1
	}
	for _, d := range drifts {
		fmt.Println(d)
	}
	if len(drifts) > 0 {
		fmt.Fprintf(os.Stderr, "rcbench publish -check: %d figure(s) of the prose do not cite their page as it is\n", len(drifts))
		return 1
	}
	fmt.Fprintln(os.Stderr, "rcbench publish -check: every figure of the prose cites its page, and shows what the page says")
	return 0
}

func listed(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return ": " + strings.Join(files, ", ")
}

// estimateOf gives the runs' own estimates: the sweep's plan, and the
// talk's recordings' lengths at talk size (the recordings of the
// repository at root) with each pair of clusters' start and stop.
func estimateOf(root, binDir string) func(published.Page) (time.Duration, string, bool) {
	return func(p published.Page) (time.Duration, string, bool) {
		switch p.Name {
		case "sweep":
			expected, _, err := sweep.Estimate(runner.Options{BinDir: binDir, Etcd3: true, Profile: true})
			if err != nil {
				return 0, "", false
			}
			return expected, "the sweep plan's own estimate on a quiet 2-core machine", true
		case "talk":
			total := 0.0
			for _, cmd := range p.Commands {
				for _, a := range cmd {
					if s, ok := live.TalkSecondsIn(root, strings.TrimPrefix(a, "-scenario=")); ok && strings.HasPrefix(a, "-scenario=") {
						total += s + talkStart.Seconds()
					}
				}
			}
			return time.Duration(total * float64(time.Second)), fmt.Sprintf("each scenario's length at talk size, plus %.0f s to start and stop its clusters", talkStart.Seconds()), true
		}
		return 0, "", false
	}
}

// talkStart is a guess at how long two clusters take to start and stop
// around a recording on a busy 2-core machine.
const talkStart = 20 * time.Second

// rcbenchRunner runs rcbench, each line of its output prefixed with the
// page's name, so that a long publish shows which page is saying what.
type rcbenchRunner struct {
	rcbench, dir string
	log          io.Writer
}

func (r *rcbenchRunner) Run(ctx context.Context, page string, args []string) error {
	// Ctrl-C reaches rcbench by itself, from the terminal, which stops
	// its run and writes what finished; publish then stops after it.
	cmd := exec.Command(r.rcbench, args...)
	cmd.Dir = r.dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			fmt.Fprintf(r.log, "[%s] %s\n", page, sc.Text())
		}
	}()
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
