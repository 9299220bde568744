package results

import (
	"math"
	"sort"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
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

// Summarize returns the stats of values, which must not be empty; the
// median is stats.Median's.
func Summarize(values []float64) Stats {
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	st := Stats{Values: append([]float64(nil), values...), Min: s[0], Max: s[len(s)-1], Median: stats.Median(values)}
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

// Noisy reports whether the spread reaches NoisySpread, or cannot be
// expressed relative to a zero median. A single run is never noisy: there
// is nothing to compare it with.
func (s Stats) Noisy() bool {
	if len(s.Values) < 2 {
		return false
	}
	return s.Spread == nil || *s.Spread >= NoisySpread
}

// MedianRun returns the index in Values of the run that stands for the
// set: the one whose value is the median, or the lower of the middle two
// for an even count, whose median is no run's value.
func (s Stats) MedianRun() int {
	idx := make([]int, len(s.Values))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.Values[idx[a]] < s.Values[idx[b]] })
	return idx[(len(idx)-1)/2]
}
