package demo

import (
	"strconv"
	"strings"
	"time"
)

// How the page, the terminal and the deck say numbers and sides: counts
// with thin spaces, rates, and whether a side has anything to show yet.

// Thousands formats n with thin spaces between groups of three digits, as
// the project's reports do.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var parts []string
	for len(s) > 3 {
		parts = append([]string{s[len(s)-3:]}, parts...)
		s = s[:len(s)-3]
	}
	parts = append([]string{s}, parts...)
	out := strings.Join(parts, "\u202f")
	if neg {
		out = "-" + out
	}
	return out
}

// FormatRate prints a rate with one decimal below ten.
func FormatRate(v float64) string {
	switch {
	case v == 0:
		return "0"
	case v < 9.95:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return Thousands(int(v + 0.5))
}

// foldUnder is how soon a step of a recording made before steps said
// whether they only set something going (scenario.Step.Starts) must have
// been over to be folded into the next (pace.go): a step over that soon
// had only set something going (a controller created), whose outcome the
// next step shows.
const foldUnder = time.Second

// Settled reports whether every side runs the pods it wants, and some.
func Settled(sides []Side) bool {
	for _, s := range sides {
		if s.Desired == 0 || s.Running != s.Desired || s.Active != s.Desired {
			return false
		}
	}
	return len(sides) > 0
}

// Idle reports whether the side has nothing to count yet: no controller has
// asked for pods and none was ever created. The counters would read 0/0
// until the managers act.
func (s Side) Idle() bool { return s.Desired == 0 && s.Active == 0 && s.Created == 0 }
