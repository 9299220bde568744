package published

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Figure is one figure as a page and its prose write it (number): a
// sign where it is a step or a difference, a number whose whole part may
// be in groups of three (Group), and the unit after it, if any. A reader
// of the prose that needs a figure's value, such as the deck's waterfall
// card, takes it from here, so that it accepts every figure a reference
// renders and counts the digits shown as the prose's checks do.
type Figure struct {
	// Text is the figure as written.
	Text string
	// Value is its number, negative after a minus sign.
	Value float64
	// Signed says it carries a sign, + or a minus (- or −).
	Signed bool
	// Unit is what follows the number, "" for none.
	Unit string
	// Decimals is how many digits it shows after its point.
	Decimals int
}

// wholeFigure is a text that is one figure and nothing else.
var wholeFigure = regexp.MustCompile(`^(` + number + `)(?:\s*(\S.*))?$`)

// ParseFigure reads text, trimmed, as one figure. It refuses a text that
// does not start with a number or holds a second one, such as a length
// written "9 min 5 s".
func ParseFigure(text string) (Figure, error) {
	text = strings.TrimSpace(text)
	m := wholeFigure.FindStringSubmatch(text)
	if m == nil {
		return Figure{}, fmt.Errorf("%q is not a number with a unit", text)
	}
	f := Figure{Text: text, Unit: m[2]}
	if strings.ContainsAny(f.Unit, "0123456789") {
		return Figure{}, fmt.Errorf("%q holds more than one number", text)
	}
	num := m[1]
	negative := false
	if r, size := utf8.DecodeRuneInString(num); r == '+' || r == '-' || r == '−' {
		f.Signed, negative = true, r != '+'
		num = num[size:]
	}
	num = strings.ReplaceAll(num, " ", "")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return Figure{}, fmt.Errorf("%q: %v", text, err)
	}
	if negative {
		v = -v
	}
	f.Value = v
	if i := strings.IndexByte(num, '.'); i >= 0 {
		f.Decimals = len(num) - i - 1
	}
	return f, nil
}

// Rounding is how far the number a figure shows may be from the number
// it rounds: half a unit of its last digit.
func (f Figure) Rounding() float64 {
	return 0.5 * math.Pow(10, -float64(f.Decimals))
}
