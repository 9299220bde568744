package charts

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// chartLead is how many seconds before its first action a scenario's time
// charts begin; where it is missing they show the whole run. Scale-down
// and churn first bring pods up, which is not what they measure.
var chartLead = map[string]float64{"scale-down": 10, "churn": 10}

// zeroMark returns the mark time charts count from: the scenario's first
// action, which is its earliest mark after "start".
func zeroMark(o *scenario.Outcome) (string, float64) {
	name, at := "start", 0.0
	first := math.Inf(1)
	for n, t := range o.Marks {
		if n != "start" && t >= 0 && t < first {
			name, first = n, t
		}
	}
	if !math.IsInf(first, 1) {
		at = first
	}
	return name, at
}

// medianRuns returns, per variant in summary order, the run drawn in the
// time charts.
func medianRuns(sz results.SizeSummary, scenarioName string, runs []results.RunRecord) []results.RunRecord {
	var out []results.RunRecord
	for _, v := range sz.Variants {
		for _, r := range runs {
			if r.Scenario == scenarioName && r.Size.Label == sz.Label && r.Variant.Name == v.Variant && r.Index == v.MedianRun && r.Outcome != nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// shifted returns a series as chart points, in seconds since zero, from
// zero-lead on.
func shifted(pts []sampler.Point, zero, lead float64, scale float64) plotter.XYs {
	var xy plotter.XYs
	for _, p := range pts {
		t := p.T - zero
		if t < -lead {
			continue
		}
		xy = append(xy, plotter.XY{X: t, Y: p.V * scale})
	}
	return xy
}

// ratePerSecond turns a cumulative series into a rate per second over
// bins of width bin, in seconds since zero.
func ratePerSecond(pts []sampler.Point, zero, lead, bin float64) plotter.XYs {
	if len(pts) < 2 {
		return nil
	}
	valueAt := func(t float64) float64 {
		i := sort.Search(len(pts), func(i int) bool { return pts[i].T > t })
		if i == 0 {
			return pts[0].V
		}
		return pts[i-1].V
	}
	var xy plotter.XYs
	first, last := pts[0].T, pts[len(pts)-1].T
	for t := first; t+bin <= last+1e-9; t += bin {
		rel := t + bin - zero
		if rel < -lead {
			continue
		}
		xy = append(xy, plotter.XY{X: rel, Y: (valueAt(t+bin) - valueAt(t)) / bin})
	}
	return xy
}

// lineOf returns a line in a variant's colour and dash.
func lineOf(xy plotter.XYs, variant string, width float64) *plotter.Line {
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil
	}
	l.Color = variantColor(variant)
	l.Width = vg.Points(width)
	l.Dashes = variantDashes(variant)
	return l
}

// markLines draws a run's marks other than start and the zero mark as
// dotted vertical lines in the variant's colour.
func markLines(p *plot.Plot, r results.RunRecord, zeroName string, zero, ymax float64) []string {
	var names []string
	for name, t := range r.Outcome.Marks {
		if name == "start" || name == zeroName || t < 0 {
			continue
		}
		x := t - zero
		l, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: ymax}})
		if err != nil {
			continue
		}
		l.Color = variantColor(r.Variant.Name)
		l.Width = vg.Points(0.8)
		l.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2.5)}
		p.Add(l)
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// timeChart draws one sampled series of each variant's median run over
// time.
func timeChart(name, title, ylabel, series string, scale float64, scenarioName string, runs []results.RunRecord, png bool) (Chart, bool) {
	if len(runs) == 0 {
		return Chart{}, false
	}
	zeroName, _ := zeroMark(runs[0].Outcome)
	lead, clip := chartLead[scenarioName]
	if !clip {
		lead = math.Inf(1)
	}
	p := newPlot(title, fmt.Sprintf("seconds since %s", zeroName), ylabel)
	var items legendItems
	ymax := 0.0
	drew := false
	type drawn struct {
		r    results.RunRecord
		zero float64
	}
	var all []drawn
	for _, r := range runs {
		_, zero := zeroMark(r.Outcome)
		xy := shifted(r.Outcome.Rec.Series(series), zero, lead, scale)
		if len(xy) == 0 {
			continue
		}
		for _, pt := range xy {
			ymax = math.Max(ymax, pt.Y)
		}
		if l := lineOf(xy, r.Variant.Name, 1.6); l != nil {
			p.Add(l)
			items.add(r.Variant.Name, l)
			drew = true
			all = append(all, drawn{r, zero})
		}
	}
	// A flat line at zero in every variant is not worth a chart.
	if !drew || ymax == 0 {
		return Chart{}, false
	}
	top := niceMax(ymax)
	p.Y.Min, p.Y.Max = 0, top
	marks := map[string]bool{}
	for _, d := range all {
		for _, m := range markLines(p, d.r, zeroName, d.zero, top) {
			marks[m] = true
		}
	}
	caption := fmt.Sprintf("The median run of each variant; time 0 is the mark %q.", zeroName)
	if len(marks) > 0 {
		var ms []string
		for m := range marks {
			ms = append(ms, m)
		}
		sort.Strings(ms)
		caption += fmt.Sprintf(" Dotted lines mark %s, in each variant's colour.", strings.Join(ms, ", "))
	}
	svg, pngData := render(vg.Points(620), vg.Points(300), withLegend(p, items), png)
	return Chart{Name: name, Title: title, Caption: caption, SVG: svg, PNG: pngData}, true
}

// verbChart draws the apiserver's requests per second, one panel per verb
// that saw any: solid for every client, dashed thin for the
// controller-managers' share.
func verbChart(name, title, scenarioName string, runs []results.RunRecord, png bool) (Chart, bool) {
	if len(runs) == 0 {
		return Chart{}, false
	}
	zeroName, _ := zeroMark(runs[0].Outcome)
	lead, clip := chartLead[scenarioName]
	if !clip {
		lead = math.Inf(1)
	}
	var panels []*plot.Plot
	for _, verb := range sampler.Verbs {
		p := newPlot(verb, "s since "+zeroName, "req/s")
		p.Title.TextStyle.Font = sans(10)
		ymax := 0.0
		for _, r := range runs {
			_, zero := zeroMark(r.Outcome)
			all := ratePerSecond(r.Outcome.Rec.Series(sampler.APIRequests+verb), zero, lead, 1)
			cm := ratePerSecond(r.Outcome.Rec.Series(sampler.ManagerRequests+verb), zero, lead, 1)
			for _, pt := range all {
				ymax = math.Max(ymax, pt.Y)
			}
			if l := lineOf(all, r.Variant.Name, 1.2); l != nil {
				p.Add(l)
			}
			if l := lineOf(cm, r.Variant.Name, 0.7); l != nil {
				l.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
				p.Add(l)
			}
		}
		if ymax == 0 {
			continue
		}
		p.Y.Min, p.Y.Max = 0, niceMax(ymax)
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return Chart{}, false
	}
	grid := rowsOf(panels, min(3, len(panels)))
	var items legendItems
	for _, r := range runs {
		if l := lineOf(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}}, r.Variant.Name, 1.2); l != nil {
			items.add(r.Variant.Name, l)
		}
	}
	dashed := lineOf(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}}, "", 0.7)
	dashed.Dashes = []vg.Length{vg.Points(3), vg.Points(2)}
	items.add("controller-manager processes only", dashed)
	h := vg.Points(60 + 150*float64(len(grid)))
	svg, pngData := render(vg.Points(640), h, gridOf(title, grid, items), png)
	caption := fmt.Sprintf("Requests per second in 1 s bins, by verb, in the median run of each variant; time 0 is the mark %q. "+
		"Solid: every client of the apiserver (managers, hollow nodes, the benchmark's own pod watch); dashed: the controller-manager "+
		"processes alone, their leader election included.", zeroName)
	return Chart{Name: name, Title: title, Caption: caption, SVG: svg, PNG: pngData}, true
}
