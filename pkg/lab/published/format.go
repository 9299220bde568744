package published

import (
	"fmt"
	"time"
)

// FormatDuration says a length as every page does: "52 s", "9 min",
// "9 min 5 s". The benchmark's pages (results.FormatDuration), the talk's
// lengths (demo.Length) and the README's lines all say it this way, so a
// change here changes their text: it is an input of those pages.
func FormatDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
