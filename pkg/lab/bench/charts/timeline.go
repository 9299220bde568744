package charts

import (
	"fmt"
	"math"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TimelineName is the file name of the timeline chart, under charts/.
const TimelineName = "history_timeline"

// Timeline draws one panel per timeline figure, a bar per step.
func Timeline(hs *results.HistorySummary, png bool) (Chart, bool) {
	var panels []*plot.Plot
	for _, name := range results.TimelineFigures {
		var names, labels []string
		var stats []results.Stats
		var proto results.Figure
		for _, st := range hs.Timeline {
			for _, f := range st.Figures {
				if f.Name == name {
					names = append(names, st.Variant)
					labels = append(labels, st.Label)
					stats = append(stats, f.Stats)
					proto = f
				}
			}
		}
		if len(stats) == 0 {
			continue
		}
		p := barPanel(figureTitle(proto), names, stats)
		p.NominalX(labels...)
		p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
		p.X.Tick.Label.Rotation = math.Pi / 4
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return Chart{}, false
	}
	grid := rowsOf(panels, 2)
	var items legendItems
	items.add("today", swatch("modern"))
	items.add("today, changes switched off", swatch("without-"))
	items.add("2014 (v0.4)", swatch("legacy"))
	if last := hs.Timeline[len(hs.Timeline)-1]; last.Variant == scenario.LegacyOriginal.Name {
		items.add("2014, the original binary", swatch(last.Variant))
	}
	title := fmt.Sprintf("Removing the changes, newest first: %s %s", results.TimelineScenario, hs.TimelineSize)
	svg, pngData := render(vg.Points(820), vg.Points(60+230*float64(len(grid))), gridOf(title, grid, items), png)
	caption := "From left to right: today's manager, then one more change switched off at each step (newest first), " +
		"then the 2014 manager. Bars: one run each, median written above."
	return Chart{Name: TimelineName, Title: title, Caption: caption, SVG: svg, PNG: pngData}, true
}
