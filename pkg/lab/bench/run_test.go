package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

func TestVariantsAlternateRunByRun(t *testing.T) {
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{"two-managers"}, Variants: []string{"legacy", "modern", "modern-unthrottled"}, Runs: 3}, f)
	if _, _, err := Run(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	want := "two-managers/legacy/0 two-managers/modern/0 two-managers/modern-unthrottled/0 " +
		"two-managers/legacy/1 two-managers/modern/1 two-managers/modern-unthrottled/1 " +
		"two-managers/legacy/2 two-managers/modern/2 two-managers/modern-unthrottled/2"
	if got := strings.Join(f.Calls, " "); got != want {
		t.Errorf("runs went\n%s\nwant\n%s", got, want)
	}
}

func TestABenchmarkWritesEveryOutputFile(t *testing.T) {
	f := &benchtest.Runs{}
	r, log := benchtest.Runner(t, runner.Options{Scenarios: []string{runner.Calibrate, "scale-up", "idle", "two-managers", "restart"}, Runs: 3}, f)
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "report.html", "results.json", "bench.txt", "charts/calibrate.svg",
		"charts/scale-up_N=1000_pods.svg", "charts/scale-up_N=1000_goroutines.svg", "charts/scale-up_N=1000_requests.svg",
		"charts/scale-up_N=1000_figures.svg", "runs/scale-up_N=100_legacy_1/samples.csv"} {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil || info.Size() == 0 {
			t.Errorf("%s missing or empty: %v", name, err)
		}
	}
	latest, err := os.Readlink(filepath.Join(r.Opts.Out, "latest"))
	if err != nil || latest != filepath.Base(dir) {
		t.Errorf("latest -> %q (%v), want %q", latest, err, filepath.Base(dir))
	}
	if len(sum.Scenarios) != 4 || sum.Calibration == nil {
		t.Errorf("%d scenarios summarised, calibration %v", len(sum.Scenarios), sum.Calibration != nil)
	}
	if !strings.Contains(log.String(), "calibrate:") || !strings.Contains(log.String(), "scale-up N=1000 modern-unthrottled, run 3 of 3") {
		t.Errorf("progress lacks calibration or run lines:\n%s", log.String())
	}
	csvData, _ := os.ReadFile(filepath.Join(dir, "runs/scale-up_N=100_legacy_1/samples.csv"))
	if !strings.HasPrefix(string(csvData), "series,seconds,value\n") || !strings.Contains(string(csvData), "\nmark.created,2.000,1\n") {
		t.Errorf("samples.csv lacks its header or the marks:\n%.300s", csvData)
	}
}

func TestResultsJSONHoldsEveryFigureWithItsSpread(t *testing.T) {
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{"scale-up", "idle"}, Runs: 3}, f)
	dir, _, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum results.Summary
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	sc, ok := sum.Scenario("scale-up")
	if !ok || len(sc.Sizes) != 2 {
		t.Fatalf("scale-up missing or not at 2 sizes: %+v", sum.Scenarios)
	}
	legacy, ok := sc.Sizes[1].Variant("legacy")
	if !ok || legacy.Runs != 3 {
		t.Fatalf("legacy at N=1000: %+v", legacy)
	}
	ttr, ok := legacy.Figure("time_to_running")
	if !ok || len(ttr.Values) != 3 || ttr.Min > ttr.Median || ttr.Median > ttr.Max || ttr.Spread == nil {
		t.Errorf("time_to_running = %+v", ttr)
	}
	if c, ok := legacy.Figure(results.TimeToCreate); !ok || !c.Derived {
		t.Errorf("the derived %s is missing: %+v", results.TimeToCreate, c)
	}
	idle, _ := sum.Scenario("idle")
	modern, _ := idle.Sizes[0].Variant("modern")
	rpm, _ := modern.Figure("requests_per_min")
	if !rpm.Noisy || rpm.Spread != nil || rpm.Explanation != findings.WhyZero {
		t.Errorf("a 0/1/0 figure should be flagged with the zero-median explanation: %+v", rpm)
	}
}

func TestFailedRunsAreReportedAndLeftOutOfTheFigures(t *testing.T) {
	f := &benchtest.Runs{Fail: map[string]bool{"restart/modern/1": true}}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{"restart"}, Variants: []string{"legacy", "modern"}, Runs: 3}, f)
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failures) != 1 || sum.Failures[0].Run != 2 || !strings.Contains(sum.Failures[0].Error, "connection refused") {
		t.Errorf("failures = %+v", sum.Failures)
	}
	modern, _ := sum.Scenarios[0].Sizes[0].Variant("modern")
	if modern.Runs != 2 || modern.Failed != 1 {
		t.Errorf("modern runs %d failed %d, want 2 and 1", modern.Runs, modern.Failed)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "restart N=1000 modern run 2: restart/modern step 1 (Create): connection refused") {
		t.Errorf("report.md does not list the failed run")
	}
}

func TestAnInterruptedBenchmarkStillReportsWhatFinished(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &benchtest.Runs{CancelAfter: 4, Cancel: cancel, Fail: map[string]bool{"scale-up/modern/1": true}}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{"scale-up"}, Variants: []string{"legacy", "modern"}, Runs: 3}, f)
	dir, sum, err := Run(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Calls) != 4 || !sum.Interrupted {
		t.Errorf("%d runs after cancelling at the 4th, interrupted %v", len(f.Calls), sum.Interrupted)
	}
	if len(sum.Failures) != 0 {
		t.Errorf("the run cut short counts as a failure: %+v", sum.Failures)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "Interrupted after 3 of 12 runs") {
		t.Errorf("report.md does not say it was interrupted")
	}
}

func TestTheReportHasATableAndChartsForEveryScenario(t *testing.T) {
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{runner.Calibrate, "scale-up", "idle", "two-managers", "restart"}, Runs: 2}, f)
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	page, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	for _, want := range []string{"## Findings", "## calibrate: the stack's ceiling", "| target | clients | writes/s |", "## How to read this report"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	for _, sc := range sum.Scenarios {
		if !strings.Contains(string(md), "## "+sc.Name+": "+sc.Title) || !strings.Contains(string(md), sc.Reproduces) {
			t.Errorf("report.md lacks the section of %s or its history", sc.Name)
		}
		for _, sz := range sc.Sizes {
			base := charts.Base(sc.Name, sz.Label)
			for _, kind := range []string{"pods", "goroutines", "requests", "figures"} {
				if !strings.Contains(string(md), "(charts/"+base+"_"+kind+".svg)") {
					t.Errorf("report.md does not show %s_%s", base, kind)
				}
				if !strings.Contains(string(page), `<figure id="`+base+"_"+kind+`">`) {
					t.Errorf("report.html does not show %s_%s", base, kind)
				}
				svg, err := os.ReadFile(filepath.Join(dir, "charts", base+"_"+kind+".svg"))
				if err != nil || len(svg) < 1000 {
					t.Errorf("%s_%s.svg: %d bytes, %v", base, kind, len(svg), err)
				}
				benchtest.CheckXML(t, base+"_"+kind+".svg", svg)
			}
			if !strings.Contains(string(md), "### "+sc.Name+" "+sz.Label+"\n\nSize:") {
				t.Errorf("report.md lacks the heading of %s %s", sc.Name, sz.Label)
			}
		}
	}
	benchtest.CheckHTML(t, page)
}
