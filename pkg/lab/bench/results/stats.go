package results

import (
	"math"
	"sort"
)

// NoisySpread is the spread from which a figure is flagged as noisy.
const NoisySpread = 0.10

// Stats summarises one figure over the runs of one variant.
type Stats struct {
	Values []float64 `json:"values"`
	Min    float64   `json:"min"`
	Median float64   `json:"median"`
	Max    float64   `json:"max"`
	// Spread is (max-min)/median; nil when the median is zero and the
	// values differ, where a relative spread means nothing.
	Spread *float64 `json:"spread"`
}

// Summarize returns the stats of values, which must not be empty.
func Summarize(values []float64) Stats {
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	st := Stats{Values: append([]float64(nil), values...), Min: s[0], Max: s[len(s)-1], Median: median(s)}
	switch {
	case st.Max == st.Min:
		zero := 0.0
		st.Spread = &zero
	case st.Median != 0:
		spread := (st.Max - st.Min) / math.Abs(st.Median)
		st.Spread = &spread
	}
	return st
}

// median returns the middle of sorted values, or the mean of the two
// middle ones.
func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// Noisy reports whether the spread reaches NoisySpread, or cannot be
// expressed relative to a zero median. A single run is never noisy: there
// is nothing to compare it with.
func (s Stats) Noisy() bool {
	if len(s.Values) < 2 {
		return false
	}
	return s.Spread == nil || *s.Spread >= NoisySpread
}

// MedianIndex returns the index in Values of the run whose value is the
// median (the lower middle one for an even count).
func (s Stats) MedianIndex() int {
	idx := make([]int, len(s.Values))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.Values[idx[a]] < s.Values[idx[b]] })
	return idx[(len(idx)-1)/2]
}

// PercentileOf returns the p-th percentile (0..100) of values by the
// nearest-rank method; zero for no values.
func PercentileOf(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	if rank < 1 {
		rank = 1
	}
	return s[rank-1]
}
