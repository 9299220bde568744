package results

import (
	"fmt"
	"math"
)

// Prediction is what a stated reason for a difference says the runs will
// show: which way the difference goes and how far. It stands beside the
// reason as data, so that the report can hold the reason to it: a
// measured difference outside it, or the other way, is not explained by
// that reason, and the page says so.
type Prediction struct {
	// Unit is the unit of the figure the reason speaks of. A reason set
	// beside a figure of another unit belongs to another figure and
	// explains nothing there.
	Unit string `json:"unit"`
	// Of says what Low and High bound: the ratio of the two sides
	// (theirs over ours), their difference (theirs − ours, in Unit), or
	// one side's value alone (theirs, in Unit).
	Of string `json:"of"`
	// Low and High bound the quantity, both included.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Control names the run that tests the cause by switching it off,
	// where the project has the switch (a -without of pkg/history, an
	// option of the apiserver).
	Control string `json:"control,omitempty"`
}

// What a Prediction bounds.
const (
	OfRatio      = "ratio"
	OfDifference = "difference"
	OfValue      = "value"
)

// Ratio predicts theirs ÷ ours between low and high.
func Ratio(unit string, low, high float64) Prediction {
	return Prediction{Unit: unit, Of: OfRatio, Low: low, High: high}
}

// Difference predicts theirs − ours between low and high, in unit.
func Difference(unit string, low, high float64) Prediction {
	return Prediction{Unit: unit, Of: OfDifference, Low: low, High: high}
}

// Value predicts theirs alone between low and high, in unit.
func Value(unit string, low, high float64) Prediction {
	return Prediction{Unit: unit, Of: OfValue, Low: low, High: high}
}

// Testing names the run that tests the cause.
func (p Prediction) Testing(control string) Prediction {
	p.Control = control
	return p
}

// Judgement is a reason's prediction held against what was measured.
type Judgement struct {
	// Predicted and Measured say, in words, what the reason predicts and
	// what the runs showed, in the same terms.
	Predicted string `json:"predicted"`
	Measured  string `json:"measured"`
	// Holds is true when the measured difference lies within the
	// prediction: only then does the reason explain it.
	Holds bool `json:"holds"`
	// Control is the prediction's control run, if any.
	Control string `json:"control,omitempty"`
}

// Sides names the two sides of a difference for a reader: Theirs and Ours
// as the page calls them ("upstream" and "ours", "without it" and "with
// it").
type Sides struct{ Theirs, Ours string }

// Judge holds the prediction against a figure of unit measured as ours
// and theirs.
func (p Prediction) Judge(sides Sides, unit string, ours, theirs float64) Judgement {
	j := Judgement{Predicted: p.Text(sides), Control: p.Control}
	if unit != p.Unit {
		j.Measured = fmt.Sprintf("a figure in %s, where the reason speaks of one in %s: it is another figure's reason", orNone(unit), orNone(p.Unit))
		return j
	}
	var m float64
	switch p.Of {
	case OfRatio:
		switch {
		case ours == theirs:
			m = 1
		case ours == 0:
			m = math.Inf(1)
		default:
			m = theirs / ours
		}
		j.Measured = fmt.Sprintf("%s ÷ %s %s", sides.Theirs, sides.Ours, ratioNumber(m))
	case OfDifference:
		m = theirs - ours
		j.Measured = fmt.Sprintf("%s − %s %s", sides.Theirs, sides.Ours, signed(m, unit))
	case OfValue:
		m = theirs
		j.Measured = fmt.Sprintf("%s %s", sides.Theirs, FormatValue(m, unit))
	default:
		j.Measured = fmt.Sprintf("a prediction of %q, which is none of ratio, difference or value", p.Of)
		return j
	}
	j.Holds = m >= p.Low && m <= p.High
	return j
}

// Text says the prediction in words.
func (p Prediction) Text(sides Sides) string {
	switch p.Of {
	case OfRatio:
		return fmt.Sprintf("%s ÷ %s between %s and %s (%s)", sides.Theirs, sides.Ours, ratioNumber(p.Low), ratioNumber(p.High),
			direction(sides, p.Low-1, p.High-1))
	case OfDifference:
		return fmt.Sprintf("%s − %s between %s and %s (%s)", sides.Theirs, sides.Ours, signed(p.Low, ""), signed(p.High, p.Unit),
			direction(sides, p.Low, p.High))
	case OfValue:
		switch {
		case math.IsInf(p.High, 1):
			return fmt.Sprintf("%s at least %s", sides.Theirs, FormatValue(p.Low, p.Unit))
		case math.IsInf(p.Low, -1):
			return fmt.Sprintf("%s at most %s", sides.Theirs, FormatValue(p.High, p.Unit))
		}
		return fmt.Sprintf("%s between %s and %s", sides.Theirs, FormatNumber(p.Low), FormatValue(p.High, p.Unit))
	}
	return fmt.Sprintf("an unknown kind of prediction (%q)", p.Of)
}

// direction says which way a range of differences from none points.
func direction(sides Sides, low, high float64) string {
	switch {
	case low > 0:
		return sides.Theirs + " higher"
	case high < 0:
		return sides.Theirs + " lower"
	case low == 0 && high > 0:
		return sides.Theirs + " as high or higher"
	case high == 0 && low < 0:
		return sides.Theirs + " as high or lower"
	case low == 0 && high == 0:
		return "no difference"
	}
	return "either way, within that bound"
}

func ratioNumber(r float64) string {
	if math.IsInf(r, 1) {
		return "∞"
	}
	return fmt.Sprintf("%.2f", r)
}

// signed writes a difference with its sign, and rounds away what the
// subtraction of two printed figures adds.
func signed(v float64, unit string) string {
	v = math.Round(v*1000) / 1000
	switch {
	case v > 0:
		return "+" + FormatValue(v, unit)
	case v < 0:
		return "−" + FormatValue(-v, unit)
	}
	return FormatValue(v, unit)
}

func orNone(unit string) string {
	if unit == "" {
		return "no unit"
	}
	return unit
}
