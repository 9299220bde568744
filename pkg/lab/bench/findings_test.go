package bench

import (
	"bytes"
	"strings"
	"testing"
)

func fig(name string, values ...float64) Figure {
	return Figure{Name: name, Stats: Summarize(values)}
}

func TestTheReferenceFindingNamesTheCostOfStatusWritesOnlyWhenThereIsOne(t *testing.T) {
	size := func(modernCPU, writes float64) *SizeSummary {
		return &SizeSummary{Label: "N=1000", Replicas: 1000, Variants: []VariantSummary{
			{Variant: "legacy", Figures: []Figure{fig("apiserver_cpu", 3.7), fig("status_writes", 0)}},
			{Variant: "modern-unthrottled", Figures: []Figure{fig("apiserver_cpu", modernCPU), fig("status_writes", writes)}},
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

// failingSummary is a benchmark in which every finding that can fail does.
func failingSummary() *Summary {
	runs := func(variant string, figures ...Figure) VariantSummary {
		return VariantSummary{Variant: variant, Runs: 3, Figures: figures}
	}
	sum := &Summary{Calibration: &Calibration{Reference: &ReferenceScaleUp{Replicas: 1000, CreateSeconds: 0.4, RunningSeconds: 2}}}
	sum.Scenarios = []ScenarioSummary{{
		Name: "scale-up",
		Sizes: []SizeSummary{{Label: "N=1000", Replicas: 1000, Variants: []VariantSummary{
			runs("legacy", fig("peak_goroutines", 300, 310, 320), fig("time_to_running", 3, 3.1, 3.2)),
			runs("modern-unthrottled", fig("peak_goroutines", 900, 950, 990), fig("time_to_running", 6, 6.5, 7),
				fig("status_writes", 140, 150, 160), fig("apiserver_cpu", 8, 9, 10)),
		}}},
	}, {
		Name: "idle",
		Sizes: []SizeSummary{{Label: "M=10,k=10", Controllers: 10, PeriodSeconds: 10, Variants: []VariantSummary{
			runs("legacy", fig("requests_per_min", 40, 40, 40), fig("lists_per_min", 40, 40, 40), fig("sync_requests_per_min", 40, 40, 40)),
			runs("modern", fig("requests_per_min", 30, 30, 31), fig("sync_requests_per_min", 0, 0, 0), fig("election_requests_per_min", 2, 2, 2)),
		}}},
	}, {
		Name: "two-managers",
		Sizes: []SizeSummary{{Label: "N=20", Replicas: 20, Variants: []VariantSummary{
			runs("legacy", fig("extra_pods", 0, 0, 0)),
			runs("modern", fig("extra_pods", 0, 0, 3)),
		}}},
	}}
	sum.Scenarios[0].Sizes[0].Variants[0].Figures = append(sum.Scenarios[0].Sizes[0].Variants[0].Figures, fig("apiserver_cpu", 3, 3, 3))
	noisy := fig("time_to_running", 1, 2, 3)
	noisy.Noisy = true
	sum.Scenarios[2].Sizes[0].Variants[1].Figures = append(sum.Scenarios[2].Sizes[0].Variants[1].Figures, noisy)
	return sum
}

func TestEveryFindingThatDoesNotHoldSaysWhyInTheReport(t *testing.T) {
	sum := failingSummary()
	sum.Findings = findings(sum)
	nos := 0
	for _, f := range sum.Findings {
		if f.Verdict == "" {
			t.Errorf("finding %q has no one-line verdict", f.Topic)
		}
		if f.Holds == nil || *f.Holds {
			continue
		}
		nos++
		if f.Why == "" {
			t.Errorf("finding %q does not hold and does not say why", f.Topic)
		}
	}
	if nos < 5 {
		t.Fatalf("%d findings fail, want the goroutine, idle, extra-pods, reference and spread findings to: %+v", nos, sum.Findings)
	}
	ref := sum.Findings[len(sum.Findings)-2]
	if ref.Topic != "scale-up against a manager-less reference" || !strings.Contains(ref.Verdict, "modern-unthrottled 3.25×") ||
		!strings.Contains(ref.Verdict, "legacy 1.55×") || !strings.Contains(ref.Why, "500 pods per sync") {
		t.Errorf("the reference finding gives no ratio per design or no reason: %+v", ref)
	}

	d := &document{title: "findings"}
	d.table(findingsTable(sum.Findings))
	var page, md bytes.Buffer
	if err := writeHTML(&page, d); err != nil {
		t.Fatal(err)
	}
	if err := writeMarkdown(&md, d); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(page.String(), `<tr class="no">`); got != nos {
		t.Errorf("the HTML highlights %d rows, want the %d that do not hold", got, nos)
	}
	if got := strings.Count(page.String(), "<strong>Why not:</strong>"); got != nos {
		t.Errorf("the HTML explains %d rows, want %d", got, nos)
	}
	if got := strings.Count(md.String(), "**NO**: "); got != nos {
		t.Errorf("the Markdown marks %d rows NO, want %d", got, nos)
	}
}

func TestAChartPanelWhoseEveryValueIsZeroIsLeftOut(t *testing.T) {
	sz := SizeSummary{Label: "N=100", Variants: []VariantSummary{
		{Variant: "legacy", Runs: 2, Figures: []Figure{fig("pod_creates", 100, 100), fig("requests_events", 0, 0)}},
		{Variant: "modern", Runs: 2, Figures: []Figure{fig("pod_creates", 100, 100), fig("requests_events", 0, 0)}},
	}}
	c, ok := barsChart("x", "x", sz, false)
	if !ok {
		t.Fatal("no chart for a size with a figure that is not zero")
	}
	if strings.Contains(string(c.SVG), "requests events") {
		t.Error("the chart draws a panel of zeros")
	}
	if !strings.Contains(c.Caption, "requests_events") {
		t.Errorf("the caption does not say which figures were all zero: %q", c.Caption)
	}
	sz.Variants[0].Figures, sz.Variants[1].Figures = sz.Variants[0].Figures[1:], sz.Variants[1].Figures[1:]
	if _, ok := barsChart("x", "x", sz, false); ok {
		t.Error("a chart of nothing but zeros is drawn")
	}
}

// A benchmark interrupted before any scale-up finished has the scenario
// with no size: its findings say nothing of it, and do not fail.
func TestAScaleUpWithNoFinishedRunHasNoGoroutineFinding(t *testing.T) {
	sum := &Summary{Scenarios: []ScenarioSummary{{Name: "scale-up"}}}
	if _, ok := goroutineFinding(sum); ok {
		t.Error("a goroutine finding without a run")
	}
}
