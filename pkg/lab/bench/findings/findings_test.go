package findings

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

func fig(name string, values ...float64) results.Figure {
	return results.Figure{Name: name, Stats: results.Summarize(values)}
}

func TestTheReferenceFindingNamesTheCostOfStatusWritesOnlyWhenThereIsOne(t *testing.T) {
	size := func(modernCPU, writes float64) *results.SizeSummary {
		return &results.SizeSummary{Label: "N=1000", Replicas: 1000, Variants: []results.VariantSummary{
			{Variant: "legacy", Figures: []results.Figure{fig("apiserver_cpu", 3.7), fig("status_writes", 0)}},
			{Variant: "modern-unthrottled", Figures: []results.Figure{fig("apiserver_cpu", modernCPU), fig("status_writes", writes)}},
		}}
	}
	got, _ := statusWriteCost(size(9.6, 150))
	for _, want := range []string{"150 status writes", "9.60 CPU s", "3.70", "listing all its pods"} {
		if !strings.Contains(got, want) {
			t.Errorf("statusWriteCost = %q, lacks %q", got, want)
		}
	}
	if got, _ := statusWriteCost(size(3.0, 150)); got != "" {
		t.Errorf("status writes that cost less than the 2014 run are still blamed: %q", got)
	}
	if got, _ := statusWriteCost(size(9.6, 0)); got != "" {
		t.Errorf("a run without status writes still names them: %q", got)
	}
}

// A benchmark interrupted before any scale-up finished, or whose every
// scale-up failed, has the scenario with no size: its findings say
// nothing of it, and do not fail.
func TestAScaleUpWithNoFinishedRunHasNoGoroutineFinding(t *testing.T) {
	sum := &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "scale-up"}}}
	if _, ok := goroutineFinding(sum); ok {
		t.Error("a goroutine finding without a run")
	}
	if _, ok := referenceFinding(sum); ok {
		t.Error("a reference finding without a run")
	}
	Findings(sum)
}
