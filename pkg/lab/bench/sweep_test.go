package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAQuickSweepDrawsCostAgainstSizeAndNamesEachDesignsBreakingPoint(t *testing.T) {
	f := &fakeRuns{fail: map[string]bool{"idle/legacy/0": true}}
	r, _ := fakeRunner(t, Options{Sweep: true, Quick: true}, f)
	dir, sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.calls); got != 3*2+2*2 {
		t.Errorf("%d runs, want scale-up at 3 sizes and idle at 2, for 2 designs: %v", got, f.calls)
	}
	if !sum.Options.Sweep {
		t.Error("the summary does not say it is a sweep")
	}
	if info, err := os.Stat(filepath.Join(dir, "charts", "sweep.svg")); err != nil || info.Size() == 0 {
		t.Errorf("no sweep chart: %v", err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Sweep: cost against cluster size", "charts/sweep.svg",
		"legacy: breaking point idle with 100 pods: 1 of 1 runs failed",
		"modern-unthrottled: breaking point none within this range"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

func TestAnIdleApiserverThatNeedsMoreThanTheMachinesCoresIsABreakingPoint(t *testing.T) {
	idle := func(k int, cpu float64) SizeSummary {
		return SizeSummary{Label: "k", Controllers: 10, Replicas: k, Variants: []VariantSummary{
			{Variant: "legacy", Runs: 1, Figures: []Figure{fig("apiserver_cpu_per_min", cpu)}},
		}}
	}
	sum := &Summary{Machine: Machine{CPUs: 2}, Scenarios: []ScenarioSummary{{Name: "idle", Sizes: []SizeSummary{idle(10, 3), idle(100, 130), idle(1000, 200)}}}}
	got := breakingPoint(sum, "legacy")
	if want := "idle with 1000 pods: the apiserver needs 130 CPU s a minute, more than the 2 cores' 120"; got != want {
		t.Errorf("breaking point %q, want %q", got, want)
	}
	if got := breakingPoint(sum, "modern"); got != "none within this range" {
		t.Errorf("a design that was not run breaks at %q", got)
	}
}
