package charts

import (
	"fmt"
	"math"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// sweepChart draws every sweep figure against the cluster's pod count, on
// a log axis, one line per variant through its medians.
func sweepChart(sum *results.Summary, png bool) (Chart, bool) {
	var panels []*plot.Plot
	for _, sf := range sweepFigures {
		sc, ok := sum.Scenario(sf.scenario)
		if !ok {
			continue
		}
		var proto results.Figure
		lines := map[string]plotter.XYs{}
		top := 0.0
		for _, sz := range sc.Sizes {
			if sz.EtcdMembers > 0 {
				continue
			}
			for _, v := range sz.Variants {
				f, ok := v.Figure(sf.figure)
				if !ok || len(f.Values) == 0 {
					continue
				}
				proto = f
				lines[v.Variant] = append(lines[v.Variant], plotter.XY{X: float64(sz.Pods()), Y: f.Median})
				top = math.Max(top, f.Max)
			}
		}
		if len(lines) == 0 || top == 0 {
			continue
		}
		title := fmt.Sprintf("%s: %s", sf.scenario, figureTitle(proto))
		p := newPlot(title, "pods", "")
		p.Title.TextStyle.Font = sans(9.5)
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		for _, v := range sum.Options.Variants {
			xy := lines[v]
			if len(xy) == 0 {
				continue
			}
			if l := lineOf(xy, v, 1.4); l != nil {
				p.Add(l)
			}
			if s, err := plotter.NewScatter(xy); err == nil {
				s.GlyphStyle.Color = variantColor(v)
				s.GlyphStyle.Radius = vg.Points(2.2)
				s.GlyphStyle.Shape = draw.CircleGlyph{}
				p.Add(s)
			}
		}
		p.Y.Min, p.Y.Max = 0, niceMax(top)
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return Chart{}, false
	}
	grid := rowsOf(panels, 2)
	var items legendItems
	for _, v := range sum.Options.Variants {
		if l := lineOf(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}}, v, 1.4); l != nil {
			items.add(v, l)
		}
	}
	title := "Cost against cluster size"
	svg, pngData := render(vg.Points(640), vg.Points(60+190*float64(len(grid))), gridOf(title, grid, items), png)
	caption := "The median run of each variant at each size; the x axis is logarithmic. Scale-up: N pods created from nothing. " +
		"Idle: 10 controllers holding that many pods between them, measured over a quiet window."
	return Chart{Name: "sweep", Title: title, Caption: caption, SVG: svg, PNG: pngData}, true
}

// sweepFigures are the costs a sweep draws against size, by scenario.
var sweepFigures = []struct{ scenario, figure string }{
	{"scale-up", "time_to_running"},
	{"scale-up", "peak_goroutines"},
	{"scale-up", "peak_rss"},
	{"scale-up", "manager_requests"},
	{"scale-up", "manager_bytes"},
	{"scale-up", "apiserver_cpu"},
	{"idle", "apiserver_cpu_per_min"},
	{"idle", "requests_per_min"},
	{"idle", "bytes_per_min"},
	{"idle", "cpu_per_min"},
	{"idle", "manager_rss"},
	{"idle", "goroutines"},
}
