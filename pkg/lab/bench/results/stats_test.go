package results

import (
	"math"
	"testing"
)

func TestSummarizeGivesMinMedianMaxAndSpread(t *testing.T) {
	for _, tc := range []struct {
		name             string
		values           []float64
		min, median, max float64
		spread           float64
		spreadUndefined  bool
		noisy            bool
		medianRunIsOneOf []int
	}{
		{name: "odd count takes the middle", values: []float64{12, 10, 11}, min: 10, median: 11, max: 12, spread: 2.0 / 11, noisy: true, medianRunIsOneOf: []int{2}},
		{name: "even count averages the middle two", values: []float64{4, 1, 3, 2}, min: 1, median: 2.5, max: 4, spread: 3 / 2.5, noisy: true, medianRunIsOneOf: []int{3}},
		{name: "equal values have no spread", values: []float64{5, 5, 5}, min: 5, median: 5, max: 5, spread: 0, medianRunIsOneOf: []int{0, 1, 2}},
		{name: "a tight set is not noisy", values: []float64{100, 104, 98}, min: 98, median: 100, max: 104, spread: 0.06, medianRunIsOneOf: []int{0}},
		{name: "a zero median makes the spread undefined", values: []float64{0, 0, 3}, min: 0, median: 0, max: 3, spreadUndefined: true, noisy: true, medianRunIsOneOf: []int{0, 1}},
		{name: "all zero is exact", values: []float64{0, 0}, min: 0, median: 0, max: 0, spread: 0, medianRunIsOneOf: []int{0, 1}},
		{name: "one run is never noisy", values: []float64{7}, min: 7, median: 7, max: 7, spread: 0, medianRunIsOneOf: []int{0}},
		{name: "a negative median spreads by its size", values: []float64{-10, -12, -11}, min: -12, median: -11, max: -10, spread: 2.0 / 11, noisy: true, medianRunIsOneOf: []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Summarize(tc.values)
			if s.Min != tc.min || s.Median != tc.median || s.Max != tc.max {
				t.Errorf("min/median/max = %v/%v/%v, want %v/%v/%v", s.Min, s.Median, s.Max, tc.min, tc.median, tc.max)
			}
			switch {
			case tc.spreadUndefined && s.Spread != nil:
				t.Errorf("spread = %v, want undefined", *s.Spread)
			case !tc.spreadUndefined && (s.Spread == nil || math.Abs(*s.Spread-tc.spread) > 1e-9):
				t.Errorf("spread = %v, want %v", s.Spread, tc.spread)
			}
			if s.Noisy() != tc.noisy {
				t.Errorf("noisy = %v, want %v", s.Noisy(), tc.noisy)
			}
			got := s.MedianRun()
			ok := false
			for _, i := range tc.medianRunIsOneOf {
				ok = ok || got == i
			}
			if !ok {
				t.Errorf("median run = %d, want one of %v", got, tc.medianRunIsOneOf)
			}
			if len(s.Values) != len(tc.values) || s.Values[0] != tc.values[0] {
				t.Errorf("values = %v, want them in run order %v", s.Values, tc.values)
			}
		})
	}
}
