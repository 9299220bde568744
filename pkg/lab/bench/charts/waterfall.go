package charts

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Step is one bar of a waterfall: a total standing on the axis, or a
// change floating on the running total.
type Step struct {
	// Label names the bar under it, in a few words.
	Label string
	// Seconds is the total, or the change.
	Seconds float64
	// Total marks a bar that stands on the axis.
	Total bool
}

// Colours of a waterfall's bars: totals grey, a change that adds time
// vermilion, one that takes time away blue (the Okabe–Ito palette).
var (
	totalColor = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	upColor    = color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xff}
	downColor  = color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}
)

// Waterfall draws steps from left to right: each total from the axis,
// each change from the running total to where it leaves it, its size
// written above it. It draws nothing for fewer than two steps.
func Waterfall(name, title string, steps []Step, png bool) (Chart, bool) {
	if len(steps) < 2 {
		return Chart{}, false
	}
	p := newPlot(title, "", "seconds to all running")
	p.X.Tick.Label.Font = sans(7.5)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	var labels plotter.XYLabels
	var names []string
	total, top, bottom := 0.0, 0.0, 0.0
	for i, s := range steps {
		from, to := total, total+s.Seconds
		fill := upColor
		text := fmt.Sprintf("%+.2f", s.Seconds)
		switch {
		case s.Total:
			from, to, fill, text = 0, s.Seconds, totalColor, fmt.Sprintf("%.2f", s.Seconds)
		case s.Seconds < 0:
			fill = downColor
		}
		total = to
		x := float64(i)
		bar, err := plotter.NewPolygon(plotter.XYs{{X: x - 0.35, Y: from}, {X: x + 0.35, Y: from}, {X: x + 0.35, Y: to}, {X: x - 0.35, Y: to}})
		if err != nil {
			continue
		}
		bar.Color = fill
		bar.LineStyle.Width = 0
		p.Add(bar)
		top, bottom = math.Max(top, math.Max(from, to)), math.Min(bottom, math.Min(from, to))
		labels.XYs = append(labels.XYs, plotter.XY{X: x, Y: math.Max(from, to)})
		labels.Labels = append(labels.Labels, text)
		names = append(names, s.Label)
	}
	addValueLabels(p, labels, 8, 0)
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(steps))-0.4
	p.Y.Min, p.Y.Max = math.Min(0, bottom*1.12), niceMax(top*1.12)
	svg, pngData := render(vg.Points(640), vg.Points(360), func(dc draw.Canvas) { p.Draw(dc) }, png)
	return Chart{Name: name, Title: title, SVG: svg, PNG: pngData,
		Caption: "Grey bars stand on the axis: a stack's median time to all running. Between them each bar is one named cause, " +
			"vermilion where it adds time and blue where it takes time away, its size written above it."}, true
}
