package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTheResultsPageHoldsTheRunTheCeilingTheHeadlineAndTheFindings(t *testing.T) {
	f := &fakeRuns{}
	r, _ := fakeRunner(t, Options{Scenarios: []string{Calibrate, "scale-up", "idle", "two-managers", "restart"}, Runs: 3, Commit: "v0.4-test-1-gabcdef"}, f)
	dir, sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{
		"Commit: `v0.4-test-1-gabcdef`", "CPUs", "Load average (1, 5, 15 min) at the start", "the whole benchmark took",
		"| raw etcd creates | rcbench (an embedded etcd member) | 64 |", "| apiserver pod POSTs | apiserver | 256 |",
		"At 64 clients the apiserver writes", "Manager-less reference scale-up of 1000 pods",
		"| scale-up N=100: peak goroutines (goroutines) | controller-manager |",
		"| scale-up N=100: time to all running (s) | cluster |",
		"| scale-up N=1000: peak goroutines (goroutines) | controller-manager |",
		"| scale-up N=1000: time to all running (s) | cluster |",
		"| scale-up N=1000: peak sockets (sockets) | controller-manager |",
		"| scale-up N=1000: peak RSS (MiB) | controller-manager |",
		"| scale-up N=1000: status writes (requests) | controller-manager |",
		"| scale-up N=1000: apiserver CPU from the controller's creation (CPU s) | apiserver |",
		"requests a minute, every purpose (leader election included) (req/min) | controller-manager |",
		"of which leader election (lease renewals) (req/min) | controller-manager |",
		"| two-managers N=20: extra pods (pods) | cluster |",
		"| restart N=1000: time to all running (s) | cluster |",
		"| topic | verdict | why not |", "calibrated ceiling",
		"figures spread 10 % or more over their runs",
		"](charts/scale-up_N=1000_goroutines.svg)",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("%s lacks %q:\n%s", ResultsFile, want, page)
		}
	}
	// Sockets, memory, status writes and apiserver CPU are shown at the
	// largest size only.
	if strings.Contains(page, "N=100: peak sockets") {
		t.Errorf("peak sockets shown below the largest size:\n%s", page)
	}
	if _, total := noisyFigures(sum); !strings.Contains(page, fmt.Sprintf(" of %d figures spread", total)) {
		t.Errorf("the page does not count all %d figures of more than one run:\n%s", total, page)
	}
}

func TestEveryNoOnTheResultsPageSaysWhyNot(t *testing.T) {
	sum := failingSummary()
	sum.Options.Variants = []string{"legacy", "modern", "modern-unthrottled"}
	sum.Findings = findings(sum)
	var md bytes.Buffer
	if err := writeMarkdown(&md, buildResults(sum, nil, nil)); err != nil {
		t.Fatal(err)
	}
	nos := 0
	for _, line := range strings.Split(md.String(), "\n") {
		if !strings.Contains(line, "**NO**") {
			continue
		}
		nos++
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 3 || len(cells[2]) < 20 {
			t.Errorf("a NO without its why not: %s", line)
		}
	}
	if nos < 5 {
		t.Errorf("%d NO rows, want the five findings that fail:\n%s", nos, md.String())
	}
	if !strings.Contains(md.String(), "| idle M=10,k=10: of which leader election (lease renewals) | cluster | – | 2 (all runs) | – |") {
		t.Errorf("the idle split by purpose is missing:\n%s", md.String())
	}
}

func TestPublishCopiesTheResultsPageAndItsChartOnlyWhenAsked(t *testing.T) {
	to := filepath.Join(t.TempDir(), "examples", "bench")
	f := &fakeRuns{}
	r, _ := fakeRunner(t, Options{Scenarios: []string{"scale-up"}, Runs: 1, Publish: to}, f)
	dir, _, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{ResultsFile, "charts/scale-up_N=1000_goroutines.svg"} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		got, err := os.ReadFile(filepath.Join(to, name))
		if err != nil || len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("%s not published as written (%v)", name, err)
		}
	}
	entries, _ := os.ReadDir(to)
	if len(entries) != 2 {
		t.Errorf("published %d entries, want %s and charts/ alone", len(entries), ResultsFile)
	}

	// An interrupted run writes its results page but publishes nothing.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := filepath.Join(t.TempDir(), "cut")
	r, _ = fakeRunner(t, Options{Scenarios: []string{"scale-up"}, Runs: 2, Publish: cut}, &fakeRuns{cancelAfter: 2, cancel: cancel})
	dir, sum, err := r.Run(ctx)
	if err != nil || !sum.Interrupted {
		t.Fatalf("interrupted %v, err %v", sum != nil && sum.Interrupted, err)
	}
	if page, _ := os.ReadFile(filepath.Join(dir, ResultsFile)); !strings.Contains(string(page), "INTERRUPTED") {
		t.Errorf("the results page of an interrupted run does not say so:\n%s", page)
	}
	if _, err := os.Stat(cut); !os.IsNotExist(err) {
		t.Errorf("an interrupted run was published: %v", err)
	}
}
