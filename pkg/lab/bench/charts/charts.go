package charts

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is one rendered figure of the report.
type Chart struct {
	// Name is the file name without extension, e.g. scale-up_N=1000_pods.
	Name    string
	Title   string
	Caption string
	SVG     []byte
	// PNG is empty unless asked for.
	PNG []byte
}

// Each variant keeps its colour in every chart, the one its description
// gives (scenario.Variant.Color), and an unthrottled variant is also
// dashed, so that it stays distinct in print.
func variantRGBA(name string) (color.RGBA, bool) {
	for _, v := range scenario.Variants {
		if v.Name != name || v.Color == "" {
			continue
		}
		var c color.RGBA
		if _, err := fmt.Sscanf(v.Color, "#%02x%02x%02x", &c.R, &c.G, &c.B); err != nil {
			panic(fmt.Sprintf("variant %s: colour %q is not #rrggbb", v.Name, v.Color))
		}
		c.A = 0xff
		return c, true
	}
	return color.RGBA{}, false
}

var (
	grey      = color.RGBA{0x66, 0x66, 0x66, 0xff}
	lightGrey = color.RGBA{0xbb, 0xbb, 0xbb, 0xff}
	gridGrey  = color.RGBA{0xe4, 0xe4, 0xe4, 0xff}
)

// HasColor reports whether a variant has a colour of its own, which the
// HTML report also gives its column.
func HasColor(variant string) bool {
	_, ok := variantRGBA(variant)
	return ok
}

func variantColor(name string) color.Color {
	if c, ok := variantRGBA(name); ok {
		return c
	}
	// Today's manager with changes of the history switched off (rcbench
	// history).
	if strings.HasPrefix(name, "without-") || strings.HasPrefix(name, "before-") {
		return color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	}
	return grey
}

func variantDashes(name string) []vg.Length {
	if strings.HasSuffix(name, "-unthrottled") {
		return []vg.Length{vg.Points(6), vg.Points(3)}
	}
	return nil
}

// sans is the report's typeface: Liberation Sans, which has Arial's
// metrics (see fontFallback).
func sans(size float64) font.Font {
	return font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, vg.Points(size))
}

// newPlot returns a plot with the report's fonts, readable ticks, a light
// grid and the given labels.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans(12)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(10)
		a.Tick.Label.Font = sans(9)
		a.Tick.Marker = plot.TickerFunc(niceTicks)
		a.Padding = vg.Points(2)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color = gridGrey
	grid.Horizontal.Color = gridGrey
	grid.Vertical.Width = vg.Points(0.5)
	grid.Horizontal.Width = vg.Points(0.5)
	p.Add(grid)
	return p
}

// legendEntry is one line of a legend: a name and its sample lines or bars.
type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// legendItems are the entries of a legend the report draws itself, beside
// a plot or in a row under a grid of plots.
type legendItems []legendEntry

func (li *legendItems) add(name string, thumbs ...plot.Thumbnailer) {
	*li = append(*li, legendEntry{name, thumbs})
}

// legend returns a plot.Legend holding entries, for drawing in a column.
func legend(entries ...legendEntry) plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = sans(9)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(22)
	l.Padding = vg.Points(3)
	for _, e := range entries {
		l.Add(e.name, e.thumbs...)
	}
	return l
}

// drawFunc draws a whole figure onto a canvas.
type drawFunc func(dc draw.Canvas)

// withLegend draws p on the left and the legend in a column on the right.
func withLegend(p *plot.Plot, items legendItems) drawFunc {
	return func(dc draw.Canvas) {
		lg := legend(items...)
		// The slack lets a wider fallback font fit where the SVG file is
		// shown without Liberation Sans or Arial.
		width := lg.Rectangle(dc).Size().X*1.15 + vg.Points(12)
		plotArea := dc
		plotArea.Max.X -= width
		p.Draw(plotArea)
		legendArea := dc
		legendArea.Min.X = plotArea.Max.X + vg.Points(6)
		legendArea.Max.Y -= vg.Points(28)
		lg.Draw(legendArea)
	}
}

// gridOf draws plots in rows and columns under a shared title, with the
// legend in one row below them.
func gridOf(title string, plots [][]*plot.Plot, items legendItems) drawFunc {
	return func(dc draw.Canvas) {
		area := dc
		if title != "" {
			sty := plot.New().Title.TextStyle
			sty.Font = sans(12)
			h := sty.Height(title)
			area.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(4)}, title)
			area.Max.Y -= h + vg.Points(10)
		}
		if len(items) > 0 {
			first := legend(items[0])
			h := first.Rectangle(dc).Size().Y
			row := area
			row.Max.Y = area.Min.Y + h + vg.Points(4)
			drawLegendRow(items, row)
			area.Min.Y += h + vg.Points(12)
		}
		cols := 0
		for _, r := range plots {
			if len(r) > cols {
				cols = len(r)
			}
		}
		tiles := draw.Tiles{Rows: len(plots), Cols: cols, PadX: vg.Points(14), PadY: vg.Points(14), PadTop: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(6)}
		canvases := plot.Align(plots, tiles, area)
		for i := range plots {
			for j, p := range plots[i] {
				if p != nil {
					p.Draw(canvases[i][j])
				}
			}
		}
	}
}

// drawLegendRow draws legend entries side by side, centred in c.
func drawLegendRow(items legendItems, c draw.Canvas) {
	var widths []vg.Length
	total := vg.Length(0)
	for _, e := range items {
		lg := legend(e)
		w := lg.Rectangle(c).Size().X + vg.Points(18)
		widths = append(widths, w)
		total += w
	}
	x := (c.Min.X+c.Max.X)/2 - total/2
	for i, e := range items {
		sub := c
		sub.Min.X, sub.Max.X = x, x+widths[i]
		lg := legend(e)
		lg.Draw(sub)
		x += widths[i]
	}
}

// render draws a figure of w by h as SVG, and as PNG when png is set.
func render(w, h vg.Length, fn drawFunc, png bool) (svg, pngData []byte) {
	sc := vgsvg.New(w, h)
	fn(draw.New(sc))
	var buf bytes.Buffer
	sc.WriteTo(&buf)
	svg = fontFallback(buf.Bytes())
	if png {
		ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(144))
		fn(draw.New(ic))
		var pb bytes.Buffer
		vgimg.PngCanvas{Canvas: ic}.WriteTo(&pb)
		pngData = pb.Bytes()
	}
	return svg, pngData
}

// fontFallback lets a browser without Liberation Sans use Arial, which has
// the same metrics, so the labels keep the widths they were laid out with.
func fontFallback(svg []byte) []byte {
	return []byte(strings.ReplaceAll(string(svg), "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"))
}

// niceMax rounds a data maximum up so that the top of an axis sits just
// above the data.
func niceMax(v float64) float64 {
	if v <= 0 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*mag >= v*1.05 {
			return m * mag
		}
	}
	return 10 * mag
}

// niceTicks labels about six round values (steps of 1, 2, 2.5 or 5 times
// a power of ten) with no needless decimals, and puts an unlabelled tick
// between each two.
func niceTicks(min, max float64) []plot.Tick {
	if max <= min {
		return []plot.Tick{{Value: min, Label: formatTick(min)}}
	}
	raw := (max - min) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	// Multiplying rather than adding keeps 0.1 + 0.2 from labelling
	// 0.30000000000000004.
	k0 := math.Ceil(min/step - 1e-9)
	for k := k0 - 1; ; k++ {
		v := k * step
		if v > max+step*1e-9 {
			break
		}
		if v >= min-step*1e-9 {
			ticks = append(ticks, plot.Tick{Value: v, Label: formatTick(v)})
		}
		if half := v + step/2; half >= min && half <= max {
			ticks = append(ticks, plot.Tick{Value: half})
		}
	}
	return ticks
}

// formatTick prints a tick value without trailing zeros.
func formatTick(v float64) string {
	if math.Abs(v) < 1e-9 {
		return "0"
	}
	return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64)
}

// rowsOf lays panels out in rows of cols, the last row padded with nil
// (an empty cell), as plot.Align takes them.
func rowsOf(panels []*plot.Plot, cols int) [][]*plot.Plot {
	var grid [][]*plot.Plot
	for i := 0; i < len(panels); i += cols {
		row := make([]*plot.Plot, cols)
		copy(row, panels[i:min(i+cols, len(panels))])
		grid = append(grid, row)
	}
	return grid
}
