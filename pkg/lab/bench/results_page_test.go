package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

func TestTheResultsPageHoldsTheRunTheCeilingTheHeadlineAndTheFindings(t *testing.T) {
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{runner.Calibrate, "scale-up", "idle", "two-managers", "restart"}, Runs: 3, Commit: "v0.4-test-1-gabcdef"}, f)
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, report.ResultsFile))
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
			t.Errorf("%s lacks %q:\n%s", report.ResultsFile, want, page)
		}
	}
	// Sockets, memory, status writes and apiserver CPU are shown at the
	// largest size only.
	if strings.Contains(page, "N=100: peak sockets") {
		t.Errorf("peak sockets shown below the largest size:\n%s", page)
	}
	if _, total := findings.NoisyFigures(sum); !strings.Contains(page, fmt.Sprintf(" of %d figures spread", total)) {
		t.Errorf("the page does not count all %d figures of more than one run:\n%s", total, page)
	}
}

func TestPublishCopiesTheResultsPageAndItsChartOnlyWhenAsked(t *testing.T) {
	to := filepath.Join(t.TempDir(), "examples", "bench")
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{"scale-up"}, Runs: 1, Publish: to}, f)
	dir, _, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{report.ResultsFile, "charts/scale-up_N=1000_goroutines.svg"} {
		want, _ := os.ReadFile(filepath.Join(dir, name))
		got, err := os.ReadFile(filepath.Join(to, name))
		if err != nil || len(want) == 0 || !bytes.Equal(got, want) {
			t.Errorf("%s not published as written (%v)", name, err)
		}
	}
	entries, _ := os.ReadDir(to)
	if len(entries) != 2 {
		t.Errorf("published %d entries, want %s and charts/ alone", len(entries), report.ResultsFile)
	}

	// An interrupted run writes its results page but publishes nothing.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := filepath.Join(t.TempDir(), "cut")
	r, _ = benchtest.Runner(t, runner.Options{Scenarios: []string{"scale-up"}, Runs: 2, Publish: cut}, &benchtest.Runs{CancelAfter: 2, Cancel: cancel})
	dir, sum, err := Run(ctx, r)
	if err != nil || !sum.Interrupted {
		t.Fatalf("interrupted %v, err %v", sum != nil && sum.Interrupted, err)
	}
	if page, _ := os.ReadFile(filepath.Join(dir, report.ResultsFile)); !strings.Contains(string(page), "INTERRUPTED") {
		t.Errorf("the results page of an interrupted run does not say so:\n%s", page)
	}
	if _, err := os.Stat(cut); !os.IsNotExist(err) {
		t.Errorf("an interrupted run was published: %v", err)
	}
}
