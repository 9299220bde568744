package demo

import (
	"fmt"
	"math"
	"strings"
)

// The pod grid and the rolling chart are drawn as SVG, the same way by the
// server (for the first paint, and for readers without JavaScript) and by
// the page's script (page.js mirrors these functions). Both work in a fixed
// coordinate space that the browser scales to the column's width.
const (
	gridW, gridH   = 600, 236
	chartW, chartH = 600, 96
	// chartSeconds is how much time the chart shows.
	chartSeconds = 60
)

// stateColour is the fill of each pod state on the page.
var stateColour = map[byte]string{
	'u': "#6e7681",
	'w': "#d29922",
	'r': "#2ea043",
	'x': "#da3633",
}

// gridLayout picks the largest square that fits n of them into w×h, and
// how many go on a row.
func gridLayout(n, w, h int) (cell, cols int) {
	if n < 1 {
		n = 1
	}
	cell = int(math.Sqrt(float64(w*h) / float64(n)))
	for cell > 1 && (w/cell)*(h/cell) < n {
		cell--
	}
	if cell < 1 {
		cell = 1
	}
	return cell, w / cell
}

// gap is the space between squares: none when they are tiny.
func gap(cell int) int {
	switch {
	case cell >= 8:
		return 2
	case cell >= 4:
		return 1
	}
	return 0
}

// gridSVG draws the pods of grid (encodeGrid's form) as squares, room being
// left for cells of them. Each run of one state becomes one rectangle per
// row, filled with a pattern of squares, so ten thousand pods cost a few
// dozen elements. id keeps the patterns of the two sides apart.
func gridSVG(id, grid string, cells int) string {
	runs := decodeGrid(grid)
	total := 0
	for _, r := range runs {
		total += r.N
	}
	if cells < total {
		cells = total
	}
	cell, cols := gridLayout(cells, gridW, gridH)
	g := gap(cell)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="grid" viewBox="0 0 %d %d" preserveAspectRatio="xMinYMin meet" role="img" aria-label="%d pods"><defs>`, gridW, gridH, total)
	for _, c := range []byte("uwrx") {
		fmt.Fprintf(&b, `<pattern id="%s%c" width="%d" height="%d" patternUnits="userSpaceOnUse"><rect width="%d" height="%d" fill="%s"/></pattern>`,
			id, c, cell, cell, cell-g, cell-g, stateColour[c])
	}
	b.WriteString(`</defs>`)
	i := 0
	for _, r := range runs {
		if stateColour[r.State] == "" {
			i += r.N
			continue
		}
		for left := r.N; left > 0; {
			row, col := i/cols, i%cols
			m := cols - col
			if m > left {
				m = left
			}
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="url(#%s%c)"/>`, col*cell, row*cell, m*cell, cell, id, r.State)
			i += m
			left -= m
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// chartScale is the top of each line's scale, shared by both sides so that
// their lines compare: pods running (at least what is desired) and the
// scenario's figure.
func chartScale(points []Point, sides []Side) (pods, figure float64) {
	pods, figure = 1, 1
	for _, s := range sides {
		pods = math.Max(pods, float64(s.Desired))
	}
	for _, p := range points {
		pods = math.Max(pods, math.Max(p[1], p[3]))
		figure = math.Max(figure, math.Max(p[2], p[4]))
	}
	return pods, figure
}

// chartLine returns the polyline points of one series of the last
// chartSeconds up to now: column 1 or 3 for pods, 2 or 4 for the figure.
func chartLine(points []Point, column int, top, now float64) string {
	var b strings.Builder
	for _, p := range points {
		age := now - p[0]
		if age > chartSeconds {
			continue
		}
		x := chartW - age/chartSeconds*chartW
		y := chartH - 3 - p[column]/top*(chartH-6)
		fmt.Fprintf(&b, "%.1f,%.1f ", x, y)
	}
	return strings.TrimSpace(b.String())
}
