package deck

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// A waterfall card draws a list of figures as bars, one row each: a figure
// without a sign is a total, a bar standing on the axis; one with a sign
// is a step, a bar from the running total to the total with it, which
// adds (+) or takes away (−). Its outline section says waterfall on a line
// of its own, and its first list gives the rows, each item a label, a
// colon and its figure, as a published page's waterfall table gives them:
//
//	- our port at parity: 2.92 s
//	- kube-scheduler, against binding directly: -0.00 s
//	- today's control plane itself: +7.10 s
//	- today's stack at parity: 10.02 s
//
// The figures are the outline's citations of that table, so the card
// shows what the page measured; the card draws them, it does not add
// them up. A total that its steps do not reach, within the rounding of
// the figures shown, is refused: the card would draw one bar's end where
// the next bar stands apart from it.

// Bar is one row of a waterfall card.
type Bar struct {
	Label string `json:"label"`
	// Text is the figure as the outline shows it; Value is its number,
	// signed for a step.
	Text  string  `json:"text"`
	Value float64 `json:"value"`
	// Step marks a row that adds to or takes from the running total; the
	// others are totals.
	Step bool `json:"step,omitempty"`
}

// barFigure is a row's figure: a sign for a step (-, − or +), a number and
// the unit after it.
var barFigure = regexp.MustCompile(`^([+−-]?)([0-9]+(?:\.[0-9]+)?)\s*(\S*)$`)

// parseBars reads a waterfall card's list: each item "label: figure".
func parseBars(l *ast.List, src []byte) ([]Bar, error) {
	var bars []Bar
	unit := ""
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		text := strings.Join(strings.Fields(inlineText(item, src)), " ")
		at := strings.LastIndex(text, ": ")
		if at < 0 {
			return nil, fmt.Errorf("waterfall: %q: want a label, a colon and a figure, as \"today's stack: 10.0 s\"", text)
		}
		label, figure := strings.TrimSpace(text[:at]), strings.TrimSpace(text[at+2:])
		m := barFigure.FindStringSubmatch(figure)
		if m == nil {
			return nil, fmt.Errorf("waterfall: %q: its figure %q is not a number with a unit, signed for a step", text, figure)
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return nil, fmt.Errorf("waterfall: %q: %v", text, err)
		}
		if m[1] == "-" || m[1] == "−" {
			v = -v
		}
		if len(bars) > 0 && m[3] != unit {
			return nil, fmt.Errorf("waterfall: %q is in %q where the rows before it are in %q: one card, one unit", text, m[3], unit)
		}
		unit = m[3]
		bars = append(bars, Bar{Label: label, Text: figure, Value: v, Step: m[1] != ""})
	}
	if err := checkBars(bars); err != nil {
		return nil, err
	}
	return bars, nil
}

// checkBars refuses a waterfall that does not start from a total, or
// whose totals its steps do not reach within the rounding of the figures
// shown: half a unit of each one's last digit.
func checkBars(bars []Bar) error {
	if len(bars) < 2 {
		return fmt.Errorf("waterfall: %d rows: a waterfall goes from one total to another", len(bars))
	}
	if bars[0].Step {
		return fmt.Errorf("waterfall: its first row %q is a step (%s): it starts from a total, a figure without a sign", bars[0].Label, bars[0].Text)
	}
	run, slack := bars[0].Value, rounding(bars[0].Text)
	for _, b := range bars[1:] {
		if b.Step {
			run += b.Value
			slack += rounding(b.Text)
			continue
		}
		if math.Abs(b.Value-run) > slack+rounding(b.Text)+1e-9 {
			return fmt.Errorf("waterfall: %q stands at %s, but the rows before it come to %.*f", b.Label, b.Text, decimals(b.Text), run)
		}
		run, slack = b.Value, rounding(b.Text)
	}
	return nil
}

// decimals is how many digits a figure shows after its point.
func decimals(figure string) int {
	m := barFigure.FindStringSubmatch(figure)
	if m == nil {
		return 0
	}
	if i := strings.IndexByte(m[2], '.'); i >= 0 {
		return len(m[2]) - i - 1
	}
	return 0
}

// rounding is how far a figure shown may be from the number it rounds.
func rounding(figure string) float64 {
	return 0.5 * math.Pow(10, -float64(decimals(figure)))
}
