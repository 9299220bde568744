package stats

import (
	"math"
	"slices"
)

// Definition is the sentence a page that prints medians or percentiles
// carries once, to say how Percentile and Median compute them.
const Definition = "Medians and percentiles interpolate linearly between the two closest values in rank order " +
	"(Hyndman and Fan's definition 7, R's default), so the median of an even count is the mean of the middle two."

// Percentile returns the p-th percentile of values, for p from 0 to 100,
// by linear interpolation between the closest ranks.
//
// This is definition 7 of Hyndman and Fan, "Sample quantiles in
// statistical packages" (The American Statistician, 1996): R's default,
// NumPy's "linear" and a spreadsheet's PERCENTILE.INC. Over the n values
// sorted, x[0] ≤ … ≤ x[n-1], it takes the fractional rank h = p/100·(n−1)
// and returns x[⌊h⌋] + (h−⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). So p=0 is the least
// value, p=100 the greatest, and p=50 the middle value of an odd count or
// the mean of the middle two of an even one: Median is this case. A p
// outside 0..100 counts as the nearer end. values is left as it was; no
// values give 0, so that an empty set still writes as a number to JSON.
func Percentile(values []float64, p float64) float64 {
	n := len(values)
	if n == 0 {
		return 0
	}
	s := slices.Clone(values)
	slices.Sort(s)
	switch {
	case !(p > 0):
		return s[0]
	case p >= 100:
		return s[n-1]
	}
	// Multiplying before dividing keeps a whole rank whole: p=90 of 11
	// values is rank 9 exactly, not 9 and a rounding error.
	h := p * float64(n-1) / 100
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return s[n-1]
	}
	f := h - float64(lo)
	a, b := s[lo], s[lo+1]
	if f == 0 || a == b {
		return a
	}
	// Weighting both ends, rather than a+f·(b−a), makes the median of
	// two values exactly their mean, (a+b)/2.
	return (1-f)*a + f*b
}

// Median returns the median of values, Percentile's p=50: the middle value
// of an odd count, the mean of the middle two of an even count, 0 for none.
func Median(values []float64) float64 {
	return Percentile(values, 50)
}

// MedianInterval returns an interval that holds the true median of the
// distribution values were drawn from with at least confidence level,
// where values are independent: the k-th lowest and the k-th highest of
// them, with k as large as level allows, and the interval's confidence.
// Each value falls on either side of the true median with even odds, so
// the interval misses it only when fewer than k fall on one side: with n
// values its confidence is 1 − 2·P(B ≤ k−1), B binomial of n trials at ½.
// It assumes nothing of the distribution. Where even the lowest and
// highest (k = 1, confidence 1 − 2^(1−n)) fall short of level, it returns
// them with their confidence; no values give zeros.
func MedianInterval(values []float64, level float64) (lo, hi float64, k int, confidence float64) {
	n := len(values)
	if n == 0 {
		return 0, 0, 0, 0
	}
	s := slices.Clone(values)
	slices.Sort(s)
	k, confidence = 1, 1-2*binomialHalfCDF(n, 0)
	for j := 2; 2*j <= n+1; j++ {
		c := 1 - 2*binomialHalfCDF(n, j-1)
		if c < level {
			break
		}
		k, confidence = j, c
	}
	return s[k-1], s[n-k], k, confidence
}

// binomialHalfCDF is P(B ≤ m) for B binomial of n trials at ½.
func binomialHalfCDF(n, m int) float64 {
	sum, c := 0.0, 1.0
	for i := 0; i <= m && i <= n; i++ {
		sum += c
		c = c * float64(n-i) / float64(i+1)
	}
	return sum / math.Pow(2, float64(n))
}
