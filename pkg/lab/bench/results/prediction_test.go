package results

import (
	"math"
	"strings"
	"testing"
)

// TestAPredictionJudgesDirectionSizeAndUnit holds each kind of prediction
// to a measurement inside it, beyond it, the other way and of a figure in
// another unit.
func TestAPredictionJudgesDirectionSizeAndUnit(t *testing.T) {
	sides := Sides{Theirs: "upstream", Ours: "ours"}
	for _, tc := range []struct {
		name         string
		p            Prediction
		unit         string
		ours, theirs float64
		holds        bool
		measured     string
	}{
		{"difference inside", Difference("MiB", 4, 10), "MiB", 37.3, 43.1, true, "upstream − ours +5.80 MiB"},
		{"difference the other way", Difference("MiB", 4, 10), "MiB", 37.3, 31.3, false, "upstream − ours −6 MiB"},
		{"difference too large", Difference("MiB", 4, 10), "MiB", 37.3, 97.3, false, "upstream − ours +60 MiB"},
		{"ratio inside", Ratio("s", 1.5, 4), "s", 0.41, 0.91, true, "upstream ÷ ours 2.22"},
		{"ratio the other way", Ratio("s", 1.5, 4), "s", 0.91, 0.41, false, "upstream ÷ ours 0.45"},
		{"ratio over nothing", Ratio("s", 1.5, 4), "s", 0, 1, false, "upstream ÷ ours ∞"},
		{"value at least", Value("CPU s/min", 90, math.Inf(1)), "CPU s/min", 0, 106, true, "upstream 106 CPU s/min"},
		{"another figure's unit", Difference("MiB", 4, 10), "goroutines", 165, 170, false, "another figure's reason"},
	} {
		j := tc.p.Judge(sides, tc.unit, tc.ours, tc.theirs)
		if j.Holds != tc.holds || !strings.Contains(j.Measured, tc.measured) {
			t.Errorf("%s: %+v, want holds %v and %q", tc.name, j, tc.holds, tc.measured)
		}
	}
	for p, want := range map[Prediction]string{
		Difference("MiB", 4, 10):                 "upstream − ours between +4 and +10 MiB (upstream higher)",
		Ratio("MiB", 0.55, 0.85):                 "upstream ÷ ours between 0.55 and 0.85 (upstream lower)",
		Difference("sockets", -10, 10):           "either way, within that bound",
		Value("CPU s/min", 90, math.Inf(1)):      "upstream at least 90 CPU s/min",
		Ratio("s", 1, 2.5).Testing("-without=x"): "(upstream as high or higher)",
	} {
		if got := p.Text(sides); !strings.Contains(got, want) {
			t.Errorf("%+v says %q, want %q", p, got, want)
		}
	}
}
