package charts

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// shortVariant names a variant under a bar.
func shortVariant(name string) string {
	if name == "modern-unthrottled" {
		return "unthrottled"
	}
	return name
}

// errRange is one bar's whisker: from min to max around the median.
type errRange struct {
	x, y, low, high float64
}

type whiskers []errRange

func (w whiskers) Len() int { return len(w) }

func (w whiskers) XY(i int) (float64, float64) { return w[i].x, w[i].y }

func (w whiskers) YError(i int) (float64, float64) { return w[i].low, w[i].high }

// barPanel draws one figure: a bar per variant at its median, with a
// whisker from min to max and the median written above.
func barPanel(title string, names []string, stats []results.Stats) *plot.Plot {
	p := newPlot(title, "", "")
	p.Title.TextStyle.Font = sans(9.5)
	p.X.Tick.Label.Font = sans(8.5)
	top := 0.0
	var ws whiskers
	var labels plotter.XYLabels
	for i, st := range stats {
		bar, err := plotter.NewBarChart(plotter.Values{st.Median}, vg.Points(26))
		if err != nil {
			continue
		}
		bar.XMin = float64(i)
		bar.Color = variantColor(names[i])
		bar.LineStyle.Width = 0
		p.Add(bar)
		if len(st.Values) > 1 && st.Max > st.Min {
			ws = append(ws, errRange{x: float64(i), y: st.Median, low: st.Median - st.Min, high: st.Max - st.Median})
		}
		top = math.Max(top, st.Max)
		labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: st.Max})
		labels.Labels = append(labels.Labels, results.FormatNumber(st.Median))
	}
	if len(ws) > 0 {
		if eb, err := plotter.NewYErrorBars(ws); err == nil {
			eb.Color = color.Black
			eb.Width = vg.Points(0.8)
			eb.CapWidth = vg.Points(8)
			p.Add(eb)
		}
	}
	addValueLabels(p, labels, 8.5, 0)
	short := make([]string, len(names))
	for i, n := range names {
		short[i] = shortVariant(n)
	}
	p.NominalX(short...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min, p.Y.Max = 0, niceMax(top*1.12)
	return p
}

// addValueLabels writes each label just above its point, centred on it
// and moved right by dx, in sans of size.
func addValueLabels(p *plot.Plot, labels plotter.XYLabels, size float64, dx vg.Length) {
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font = sans(size)
		lb.TextStyle[i].XAlign = draw.XCenter
	}
	lb.Offset = vg.Point{X: dx, Y: vg.Points(3)}
	p.Add(lb)
}

// figureTitle is a panel title: the figure, its unit, whose process it
// is, and which way is better.
func figureTitle(f results.Figure) string {
	t := strings.ReplaceAll(f.Name, "_", " ")
	if f.Unit != "" {
		t += " (" + f.Unit + ")"
	}
	if f.Process != "" {
		t += ", " + f.Process
	}
	if f.LowerIsBetter {
		t += ", lower is better"
	}
	return t
}

// barsChart compares every figure of a scenario size across variants.
func barsChart(name, title string, sz results.SizeSummary, png bool) (Chart, bool) {
	var order []string
	seen := map[string]results.Figure{}
	for _, v := range sz.Variants {
		for _, f := range v.Figures {
			if _, ok := seen[f.Name]; !ok {
				order = append(order, f.Name)
				seen[f.Name] = f
			}
		}
	}
	if len(order) == 0 {
		return Chart{}, false
	}
	var panels []*plot.Plot
	var zero []string
	for _, fname := range order {
		var names []string
		var stats []results.Stats
		nonzero := false
		for _, v := range sz.Variants {
			if f, ok := v.Figure(fname); ok {
				names = append(names, v.Variant)
				stats = append(stats, f.Stats)
				nonzero = nonzero || f.Min != 0 || f.Max != 0
			}
		}
		// A panel of empty bars says less than its name in a caption.
		if !nonzero {
			zero = append(zero, fname)
			continue
		}
		panels = append(panels, barPanel(figureTitle(seen[fname]), names, stats))
	}
	if len(panels) == 0 {
		return Chart{}, false
	}
	grid := rowsOf(panels, min(3, len(panels)))
	var items legendItems
	for _, v := range sz.Variants {
		items.add(v.Variant, swatch(v.Variant))
	}
	h := vg.Points(60 + 170*float64(len(grid)))
	svg, pngData := render(vg.Points(640), h, gridOf(title, grid, items), png)
	caption := "Bars: the median over the runs, written above; whiskers: the lowest and highest run."
	if len(zero) > 0 {
		caption += " Not drawn, 0 in every run of every variant: " + strings.Join(zero, ", ") + "."
	}
	return Chart{Name: name, Title: title, Caption: caption, SVG: svg, PNG: pngData}, true
}

// swatch is a legend sample: a filled box in a variant's colour.
func swatch(variant string) plot.Thumbnailer {
	b, _ := plotter.NewBarChart(plotter.Values{1}, vg.Points(10))
	b.Color = variantColor(variant)
	b.LineStyle.Width = 0
	return b
}

// calibrationChart shows writes per second at each concurrency, raw etcd
// beside the apiserver's pod creates, in greys that no variant uses.
func calibrationChart(cal *results.Calibration, png bool) (Chart, bool) {
	if cal == nil || len(cal.Levels) == 0 {
		return Chart{}, false
	}
	var clients []int
	seen := map[int]bool{}
	for _, l := range cal.Levels {
		if !seen[l.Clients] {
			seen[l.Clients] = true
			clients = append(clients, l.Clients)
		}
	}
	p := newPlot("The stack's ceiling: writes per second by concurrent clients", "concurrent clients", "writes/s")
	var items legendItems
	top := 0.0
	for k, target := range []string{"etcd", "apiserver"} {
		offset := vg.Points([]float64{-17, 17}[k])
		vals := make(plotter.Values, len(clients))
		var labels plotter.XYLabels
		for i, c := range clients {
			if l, ok := cal.Level(target, c); ok {
				vals[i] = l.PerSecond
				top = math.Max(top, l.PerSecond)
				labels.XYs = append(labels.XYs, plotter.XY{X: float64(i), Y: l.PerSecond})
				labels.Labels = append(labels.Labels, results.FormatNumber(l.PerSecond))
			}
		}
		bar, err := plotter.NewBarChart(vals, vg.Points(34))
		if err != nil {
			continue
		}
		bar.Color = []color.Color{grey, lightGrey}[k]
		bar.LineStyle.Width = 0
		bar.Offset = offset
		p.Add(bar)
		items.add(map[string]string{"etcd": "raw etcd creates (go-etcd)", "apiserver": "apiserver pod POSTs"}[target], bar)
		addValueLabels(p, labels, 8.5, offset)
	}
	names := make([]string, len(clients))
	for i, c := range clients {
		names[i] = fmt.Sprint(c)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(clients))-0.4
	p.Y.Min, p.Y.Max = 0, niceMax(top*1.1)
	svg, pngData := render(vg.Points(620), vg.Points(300), withLegend(p, items), png)
	caption := fmt.Sprintf("Completed writes per second over %.0f s at each level, after a warm-up; the latencies are in the table.", cal.Seconds)
	return Chart{Name: "calibrate", Title: p.Title.Text, Caption: caption, SVG: svg, PNG: pngData}, true
}
