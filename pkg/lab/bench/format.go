package bench

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// formatNumber prints a figure with as many digits as it deserves: whole
// numbers from 100 on, one decimal from 10, two below.
func formatNumber(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "–"
	case a >= 100 || v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// formatValue prints a figure with its unit.
func formatValue(v float64, unit string) string {
	if unit == "" {
		return formatNumber(v)
	}
	return formatNumber(v) + " " + unit
}

// formatSpread prints a spread as a percentage, or says why there is none.
func formatSpread(st Stats) string {
	switch {
	case len(st.Values) < 2:
		return "1 run"
	case st.Spread == nil:
		return "n/a (median 0)"
	}
	return fmt.Sprintf("%.0f %%", *st.Spread*100)
}

// formatDuration writes a duration in whole minutes and seconds.
func formatDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
