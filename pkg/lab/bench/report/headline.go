package report

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// headlineFigure is one figure of the results page's headline table.
type headlineFigure struct {
	scenario, figure string
	// label says what the figure is, for a reader who has not read the
	// scenario's table.
	label string
	// largestOnly keeps the figure at the scenario's largest size only.
	largestOnly bool
}

// headline lists the figures that carry the comparison, in the order the
// results page shows them: each scenario's Headline, scenarios in the
// order of scripts.All.
var headline = headlineOf(scripts.All())

// headlineOf lists the headline figures the scenarios scs declare, in
// their order.
func headlineOf(scs []*scenario.Scenario) []headlineFigure {
	var out []headlineFigure
	for _, sc := range scs {
		for _, h := range sc.Headline {
			out = append(out, headlineFigure{scenario: sc.Name, figure: h.Result, label: h.Label, largestOnly: h.LargestOnly})
		}
	}
	return out
}

// headlineTable has one row per headline figure and size run, one column
// per variant; it is false when no headline figure was measured.
func headlineTable(sum *results.Summary) (table, bool) {
	variants := sum.Options.Variants
	t := table{header: append([]string{"scenario, size: figure", "process"}, variants...)}
	t.numeric = make([]bool, len(t.header))
	for i := 2; i < len(t.numeric); i++ {
		t.numeric[i] = true
	}
	eachHeadline(sum, func(sz *results.SizeSummary, h headlineFigure) {
		if row, ok := headlineRow(sz, variants, h); ok {
			t.rows = append(t.rows, row)
		}
	})
	return t, len(t.rows) > 0
}

// eachHeadline calls f with every headline figure at every size its
// scenario ran, in the order of the headline list, sizes ascending.
func eachHeadline(sum *results.Summary, f func(sz *results.SizeSummary, h headlineFigure)) {
	var scenarios []string
	for _, h := range headline {
		if len(scenarios) == 0 || scenarios[len(scenarios)-1] != h.scenario {
			scenarios = append(scenarios, h.scenario)
		}
	}
	for _, name := range scenarios {
		sc, ok := sum.Scenario(name)
		if !ok {
			continue
		}
		largest := findings.LargestSize(sc)
		for i := range sc.Sizes {
			sz := &sc.Sizes[i]
			for _, h := range headline {
				if h.scenario == name && (!h.largestOnly || sz == largest) {
					f(sz, h)
				}
			}
		}
	}
}

// headlineRow is one headline figure at one size, a cell per variant; it
// is false when no variant measured the figure.
func headlineRow(sz *results.SizeSummary, variants []string, h headlineFigure) ([]string, bool) {
	var proto results.Figure
	found := false
	cells := make([]string, len(variants))
	for j, name := range variants {
		cells[j] = "–"
		v, ok := sz.Variant(name)
		if !ok || v.Runs == 0 {
			continue
		}
		f, ok := v.Figure(h.figure)
		if !ok {
			continue
		}
		proto, found = f, true
		cells[j] = cellText(f.Stats)
		if f.Noisy {
			cells[j] += " ⚠"
		}
	}
	label := fmt.Sprintf("%s %s: %s", h.scenario, sz.Label, h.label)
	if proto.Unit != "" {
		label += " (" + proto.Unit + ")"
	}
	return append([]string{label, processName(proto.Process)}, cells...), found
}
