package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// FormatNumber prints a figure with as many digits as it deserves: whole
// numbers from 100 on, one decimal from 10, two below.
func FormatNumber(v float64) string {
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

// FormatValue prints a figure with its unit.
func FormatValue(v float64, unit string) string {
	if unit == "" {
		return FormatNumber(v)
	}
	return FormatNumber(v) + " " + unit
}

// FormatSpread prints a spread as a percentage, or says why there is none.
func FormatSpread(st Stats) string {
	switch {
	case len(st.Values) < 2:
		return "1 run"
	case st.Spread == nil:
		return "n/a (median 0)"
	}
	return fmt.Sprintf("%.0f %%", *st.Spread*100)
}

// FormatDuration writes a duration in whole minutes and seconds, as every
// published page does (published.FormatDuration).
func FormatDuration(d time.Duration) string { return published.FormatDuration(d) }

// Slug makes a size label safe for file names and benchmark names.
func Slug(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.ContainsRune("=,.+-", c):
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
