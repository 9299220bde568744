package stats

import (
	"math"
	"slices"
	"testing"
)

func TestPercentileInterpolatesLinearlyBetweenTheClosestRanks(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []float64
		p      float64
		want   float64
	}{
		{name: "no values give zero", values: nil, p: 50, want: 0},
		{name: "no values give zero at the top too", values: []float64{}, p: 100, want: 0},
		{name: "one value is every percentile: p0", values: []float64{7}, p: 0, want: 7},
		{name: "one value is every percentile: p50", values: []float64{7}, p: 50, want: 7},
		{name: "one value is every percentile: p99", values: []float64{7}, p: 99, want: 7},
		{name: "p0 is the least value", values: []float64{3, 1, 2}, p: 0, want: 1},
		{name: "p100 is the greatest value", values: []float64{3, 1, 2}, p: 100, want: 3},
		{name: "an odd count's p50 is the middle value", values: []float64{3, 1, 2}, p: 50, want: 2},
		{name: "an odd count's p25 lies halfway between the first two", values: []float64{3, 1, 2}, p: 25, want: 1.5},
		{name: "an even count's p50 is the mean of the middle two", values: []float64{4, 1, 3, 2}, p: 50, want: 2.5},
		{name: "an even count's p25 lies three quarters of the way from the first to the second", values: []float64{4, 1, 3, 2}, p: 25, want: 1.75},
		{name: "p90 of 1 to 10 lies a tenth past 9", values: []float64{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}, p: 90, want: 9.1},
		{name: "p99 of 1 to 10 lies nine tenths of the way from 9 to 10", values: []float64{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}, p: 99, want: 9.91},
		{name: "a whole rank takes its value alone", values: []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, p: 90, want: 9},
		{name: "ties hold the middle", values: []float64{2, 5, 2, 1, 2}, p: 50, want: 2},
		{name: "ties hold a whole run of ranks", values: []float64{2, 5, 2, 1, 2}, p: 75, want: 2},
		{name: "ties still interpolate towards a different neighbour", values: []float64{2, 5, 2, 1, 2}, p: 90, want: 3.8},
		{name: "all equal values are every percentile", values: []float64{4, 4, 4, 4}, p: 37, want: 4},
		{name: "a p below 0 is the least value", values: []float64{3, 1, 2}, p: -5, want: 1},
		{name: "a p above 100 is the greatest value", values: []float64{3, 1, 2}, p: 150, want: 3},
		{name: "negative values interpolate the same way", values: []float64{-1, -4, -2, -3}, p: 50, want: -2.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Percentile(tc.values, tc.p); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Percentile(%v, %v) = %v, want %v", tc.values, tc.p, got, tc.want)
			}
		})
	}
}

func TestMedianIsTheFiftiethPercentile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []float64
		want   float64
	}{
		{name: "none is zero", values: nil, want: 0},
		{name: "one value is itself", values: []float64{7}, want: 7},
		{name: "an odd count takes the middle value", values: []float64{12, 10, 11}, want: 11},
		{name: "an even count takes the mean of the middle two", values: []float64{4, 1, 3, 2}, want: 2.5},
		{name: "two values give exactly their mean", values: []float64{0.1, 0.2}, want: mean(0.1, 0.2)},
		{name: "ties in the middle are the median", values: []float64{1, 3, 3, 9}, want: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Median(tc.values)
			if got != tc.want {
				t.Errorf("Median(%v) = %v, want %v", tc.values, got, tc.want)
			}
			if p50 := Percentile(tc.values, 50); got != p50 {
				t.Errorf("Median(%v) = %v but Percentile(…, 50) = %v", tc.values, got, p50)
			}
		})
	}
}

// mean is (a+b)/2 computed at run time, in float64, as the median of two
// values must come out: a constant expression would be exact instead.
func mean(a, b float64) float64 {
	return (a + b) / 2
}

func TestPercentileLeavesItsValuesInTheirOrder(t *testing.T) {
	values := []float64{3, 1, 2}
	Percentile(values, 50)
	if want := []float64{3, 1, 2}; !slices.Equal(values, want) {
		t.Errorf("values = %v after Percentile, want them as given, %v", values, want)
	}
}

func TestMedianIntervalTakesTheOrderStatisticsItsConfidenceAllows(t *testing.T) {
	one := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(n - i) // descending, to show it sorts
		}
		return v
	}
	for _, tc := range []struct {
		name         string
		values       []float64
		lo, hi, conf float64
		k            int
	}{
		{name: "no values give zeros", values: nil},
		{name: "five values: only their range, 1 − 2^−4", values: one(5), lo: 1, hi: 5, k: 1, conf: 0.9375},
		{name: "six values: the range, 1 − 2^−5", values: one(6), lo: 1, hi: 6, k: 1, conf: 0.96875},
		{name: "nine values: second lowest to second highest, 1 − 2·10/512", values: one(9), lo: 2, hi: 8, k: 2, conf: 1 - 20.0/512},
		{name: "fifteen values: fourth lowest to fourth highest, 1 − 2·576/32768", values: one(15), lo: 4, hi: 12, k: 4, conf: 1 - 1152.0/32768},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi, k, conf := MedianInterval(tc.values, 0.95)
			if lo != tc.lo || hi != tc.hi || k != tc.k || math.Abs(conf-tc.conf) > 1e-12 {
				t.Errorf("MedianInterval(%v, 0.95) = %v, %v, k=%d, %v; want %v, %v, k=%d, %v", tc.values, lo, hi, k, conf, tc.lo, tc.hi, tc.k, tc.conf)
			}
		})
	}
}
