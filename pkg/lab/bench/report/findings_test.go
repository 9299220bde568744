package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

func fig(name string, values ...float64) results.Figure {
	return results.Figure{Name: name, Stats: results.Summarize(values)}
}

// failingSummary is a benchmark in which every finding that can fail does.
func failingSummary() *results.Summary {
	runs := func(variant string, figures ...results.Figure) results.VariantSummary {
		return results.VariantSummary{Variant: variant, Runs: 3, Figures: figures}
	}
	sum := &results.Summary{Calibration: &results.Calibration{Reference: &results.ReferenceScaleUp{Replicas: 1000, CreateSeconds: 0.4, RunningSeconds: 2}}}
	sum.Scenarios = []results.ScenarioSummary{{
		Name: "scale-up",
		Sizes: []results.SizeSummary{{Label: "N=1000", Replicas: 1000, Variants: []results.VariantSummary{
			runs("legacy", fig("peak_goroutines", 300, 310, 320), fig("time_to_running", 3, 3.1, 3.2)),
			runs("modern-unthrottled", fig("peak_goroutines", 900, 950, 990), fig("time_to_running", 6, 6.5, 7),
				fig("status_writes", 140, 150, 160), fig("apiserver_cpu", 8, 9, 10)),
		}}},
	}, {
		Name: "idle",
		Sizes: []results.SizeSummary{{Label: "M=10,k=10", Controllers: 10, PeriodSeconds: 10, Variants: []results.VariantSummary{
			runs("legacy", fig("requests_per_min", 40, 40, 40), fig("lists_per_min", 40, 40, 40), fig("sync_requests_per_min", 40, 40, 40)),
			runs("modern", fig("requests_per_min", 30, 30, 31), fig("sync_requests_per_min", 0, 0, 0), fig("election_requests_per_min", 2, 2, 2)),
		}}},
	}, {
		Name: "two-managers",
		Sizes: []results.SizeSummary{{Label: "N=20", Replicas: 20, Variants: []results.VariantSummary{
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
	sum.Findings = findings.Findings(sum)
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

// TestAFindingsReasonWhosePredictionFailsIsNotExplained holds the
// findings' reasons to measurements as they predict, the other way and out
// of range: only the first is explained; the others are NOT EXPLAINED on
// the page, with the prediction and the measurement.
func TestAFindingsReasonWhosePredictionFailsIsNotExplained(t *testing.T) {
	runs := func(variant string, figures ...results.Figure) results.VariantSummary {
		return results.VariantSummary{Variant: variant, Runs: 3, Figures: figures}
	}
	unit := func(f results.Figure, u string) results.Figure { f.Unit = u; return f }
	twoManagers := func(creates float64) *results.Summary {
		return &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "two-managers", Sizes: []results.SizeSummary{{
			Label: "N=20", Replicas: 20, Variants: []results.VariantSummary{
				runs("legacy", unit(fig("extra_pods", 0, 0, 0), "pods"), unit(fig("pod_creates", creates, creates, creates), "requests")),
				runs("modern", unit(fig("extra_pods", 0, 0, 0), "pods"), unit(fig("pod_creates", 20, 20, 20), "requests")),
			}}}}}}
	}
	reference := func(seconds float64) *results.Summary {
		return &results.Summary{
			Calibration: &results.Calibration{Reference: &results.ReferenceScaleUp{Replicas: 1000, CreateSeconds: 0.72, RunningSeconds: 2.59}},
			Scenarios: []results.ScenarioSummary{{Name: "scale-up", Sizes: []results.SizeSummary{{Label: "N=1000", Replicas: 1000,
				Variants: []results.VariantSummary{runs("modern-unthrottled", unit(fig("time_to_running", seconds, seconds, seconds), "s"))}}}}}}
	}
	goroutines := func(peak float64) *results.Summary {
		sum := &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "scale-up", Sizes: []results.SizeSummary{{Label: "N=100000", Replicas: 100000,
			Variants: []results.VariantSummary{runs("legacy", unit(fig("peak_goroutines", peak), "goroutines"))}}}}}}
		sum.Machine.FileLimit = 20000
		return sum
	}
	for _, tc := range []struct {
		name      string
		topic     string
		sum       *results.Summary
		explained bool
		want      []string
	}{
		{"two 2014 managers racing, as predicted", "extra pods", twoManagers(20), true,
			[]string{"their pod creates ÷ N between 1.00 and 1.05 (their pod creates as high or higher)", "measured: their pod creates ÷ N 1.00"}},
		{"two 2014 managers racing, fewer creates than N: the other way", "extra pods", twoManagers(10), false,
			[]string{"**NOT EXPLAINED**", "measured their pod creates ÷ N 0.50"}},
		{"two 2014 managers racing, twice N creates: out of range", "extra pods", twoManagers(40), false,
			[]string{"**NOT EXPLAINED**", "measured their pod creates ÷ N 2.00"}},
		{"the burst cap's second round trip, as predicted", "scale-up against a manager-less reference", reference(4.98), true,
			[]string{"modern-unthrottled ÷ the reference between 1.00 and 2.50", "measured: modern-unthrottled ÷ the reference 1.92",
				"Control run: -without=burst-cap"}},
		{"the burst cap's second round trip, out of range", "scale-up against a manager-less reference", reference(9.0), false,
			[]string{"**NOT EXPLAINED**", "measured modern-unthrottled ÷ the reference 3.47"}},
		{"the open-file limit, as predicted", "goroutine peak during scale-up", goroutines(76300), true,
			[]string{"legacy's peak ÷ the open-file limit between 2.50 and 4.50", "measured: legacy's peak ÷ the open-file limit 3.81"}},
		{"the open-file limit, out of range", "goroutine peak during scale-up", goroutines(30000), false,
			[]string{"**NOT EXPLAINED**", "measured legacy's peak ÷ the open-file limit 1.50"}},
	} {
		f, ok := byTopic(findings.Findings(tc.sum), tc.topic)
		if !ok || f.Holds == nil || *f.Holds || f.Explained == nil {
			t.Errorf("%s: want a finding that does not hold, judged: %+v", tc.name, f)
			continue
		}
		if *f.Explained != tc.explained {
			t.Errorf("%s: explained %v, want %v: %s", tc.name, *f.Explained, tc.explained, f.Why)
		}
		var md bytes.Buffer
		d := &document{title: "findings"}
		d.table(verdictTable([]results.Finding{f}))
		if err := writeMarkdown(&md, d); err != nil {
			t.Fatal(err)
		}
		for _, want := range tc.want {
			if !strings.Contains(md.String(), want) {
				t.Errorf("%s: the page lacks %q: %s", tc.name, want, md.String())
			}
		}
		if tc.explained && strings.Contains(md.String(), "NOT EXPLAINED") {
			t.Errorf("%s: explained, yet marked NOT EXPLAINED: %s", tc.name, md.String())
		}
	}
}

// byTopic returns the finding of that topic.
func byTopic(fs []results.Finding, topic string) (results.Finding, bool) {
	for _, f := range fs {
		if f.Topic == topic {
			return f, true
		}
	}
	return results.Finding{}, false
}
