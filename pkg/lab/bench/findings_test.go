package bench

import (
	"strings"
	"testing"
)

func TestTheReferenceFindingNamesTheCostOfStatusWritesOnlyWhenThereIsOne(t *testing.T) {
	fig := func(name string, median float64) Figure {
		return Figure{Name: name, Stats: Stats{Values: []float64{median}, Min: median, Median: median, Max: median}}
	}
	size := func(modernCPU, puts float64) *SizeSummary {
		return &SizeSummary{Label: "N=1000", Replicas: 1000, Variants: []VariantSummary{
			{Variant: "legacy", Figures: []Figure{fig("apiserver_cpu", 3.7), fig("manager_puts", 0)}},
			{Variant: "modern-unthrottled", Figures: []Figure{fig("apiserver_cpu", modernCPU), fig("manager_puts", puts)}},
		}}
	}
	got := statusWriteCost(size(9.6, 150))
	for _, want := range []string{"150 status writes", "9.60 CPU s", "3.70", "listing all its pods"} {
		if !strings.Contains(got, want) {
			t.Errorf("statusWriteCost = %q, lacks %q", got, want)
		}
	}
	if got := statusWriteCost(size(3.0, 150)); got != "" {
		t.Errorf("status writes that cost less than the 2014 run are still blamed: %q", got)
	}
	if got := statusWriteCost(size(9.6, 0)); got != "" {
		t.Errorf("a run without status writes still names them: %q", got)
	}
}
