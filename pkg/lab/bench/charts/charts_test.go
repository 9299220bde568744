package charts

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

func TestAChartPanelWhoseEveryValueIsZeroIsLeftOut(t *testing.T) {
	sz := results.SizeSummary{Label: "N=100", Variants: []results.VariantSummary{
		{Variant: "legacy", Runs: 2, Figures: []results.Figure{results.Figure{Name: "pod_creates", Stats: results.Summarize([]float64{100, 100})}, results.Figure{Name: "requests_events", Stats: results.Summarize([]float64{0, 0})}}},
		{Variant: "modern", Runs: 2, Figures: []results.Figure{results.Figure{Name: "pod_creates", Stats: results.Summarize([]float64{100, 100})}, results.Figure{Name: "requests_events", Stats: results.Summarize([]float64{0, 0})}}},
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

func TestTicksAreRoundAndLabelledWithoutNeedlessDecimals(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{0, 50, "0 10 20 30 40 50"},
		{-3, 12, "-2.5 0 2.5 5 7.5 10"},
		{0, 0.3, "0 0.05 0.1 0.15 0.2 0.25 0.3"},
		{0, 1200, "0 200 400 600 800 1000 1200"},
	} {
		var labels []string
		for _, tk := range niceTicks(tc.min, tc.max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != tc.want {
			t.Errorf("ticks of [%v, %v] = %q, want %q", tc.min, tc.max, got, tc.want)
		}
	}
}
