package deck

import (
	"fmt"
	"math"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
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
// shows what the page measured, read as published.ParseFigure reads any
// figure a citation renders (a thousand and more in groups of three);
// the card draws them, it does not add them up. A total that its steps do not reach, within the rounding of
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
	// shown is the figure as read, for the digits it shows.
	shown published.Figure
}

// parseBars reads a waterfall card's list: each item "label: figure",
// the figure as published.ParseFigure reads it.
func parseBars(l *ast.List, src []byte) ([]Bar, error) {
	var bars []Bar
	unit := ""
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		text := strings.Join(strings.Fields(inlineText(item, src)), " ")
		at := strings.LastIndex(text, ": ")
		if at < 0 {
			return nil, fmt.Errorf("waterfall: %q: want a label, a colon and a figure, as \"today's stack: 10.0 s\"", text)
		}
		label := strings.TrimSpace(text[:at])
		f, err := published.ParseFigure(text[at+2:])
		if err != nil {
			return nil, fmt.Errorf("waterfall: %q: its figure: %v, signed for a step", text, err)
		}
		if len(bars) > 0 && f.Unit != unit {
			return nil, fmt.Errorf("waterfall: %q is in %q where the rows before it are in %q: one card, one unit", text, f.Unit, unit)
		}
		unit = f.Unit
		bars = append(bars, Bar{Label: label, Text: f.Text, Value: f.Value, Step: f.Signed, shown: f})
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
	run, slack := bars[0].Value, bars[0].shown.Rounding()
	for _, b := range bars[1:] {
		if b.Step {
			run += b.Value
			slack += b.shown.Rounding()
			continue
		}
		if math.Abs(b.Value-run) > slack+b.shown.Rounding()+1e-9 {
			return fmt.Errorf("waterfall: %q stands at %s, but the rows before it come to %.*f", b.Label, b.Text, b.shown.Decimals, run)
		}
		run, slack = b.Value, b.shown.Rounding()
	}
	return nil
}
