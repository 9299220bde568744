package live

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
)

// console writes the narration. On a terminal it keeps two live lines of
// counters at the bottom, rewritten in place, and colours the designs;
// into a file or a pipe it writes plain lines and repeats the counters only
// every few seconds.
type console struct {
	w   io.Writer
	tty bool

	mu       sync.Mutex
	live     int
	lastLive time.Time
}

// plainEvery is how often the counters are repeated when not on a terminal.
const plainEvery = 5 * time.Second

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ANSI styles, used on a terminal only.
const (
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
	reset  = "\x1b[0m"
	violet = "\x1b[38;5;141m"
	teal   = "\x1b[38;5;44m"
	green  = "\x1b[32m"
	red    = "\x1b[31m"
	yellow = "\x1b[33m"
)

func (c *console) style(s, code string) string {
	if !c.tty || s == "" {
		return s
	}
	return code + s + reset
}

// clearLive removes the live lines so that text can go above them.
func (c *console) clearLive() {
	if c.tty && c.live > 0 {
		fmt.Fprintf(c.w, "\x1b[%dF\x1b[J", c.live)
	}
	c.live = 0
}

// printf writes narration above the live lines.
func (c *console) printf(format string, args ...interface{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clearLive()
	fmt.Fprintf(c.w, format, args...)
}

// setLive shows lines as the live counters; when not on a terminal, only
// every plainEvery unless force.
func (c *console) setLive(lines []string, force bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.tty {
		if !force && time.Since(c.lastLive) < plainEvery {
			return
		}
		c.lastLive = time.Now()
		for _, l := range lines {
			fmt.Fprintln(c.w, l)
		}
		return
	}
	c.clearLive()
	for _, l := range lines {
		fmt.Fprintf(c.w, "\x1b[2K%s\n", l)
	}
	c.live = len(lines)
}

// holdLive delays the next counters when not on a terminal by plainEvery,
// so that a step's first counters come once the step has had time to act.
func (c *console) holdLive() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastLive = time.Now()
}

// keepLive leaves the live lines on screen as ordinary text.
func (c *console) keepLive() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.live = 0
	c.lastLive = time.Time{}
}

// counterLine is the live counters of side i of designs, its name padded
// to the longer of the two.
func (c *console) counterLine(designs []demo.Design, i int, s demo.Side) string {
	name, colour := designs[i].Short, violet
	if i == 1 {
		colour = teal
	}
	name = fmt.Sprintf("%-*s", max(len(designs[0].Short), len(designs[1].Short)), name)
	if !s.Ready {
		return fmt.Sprintf("  %s  starting…", c.style(name, bold+colour))
	}
	reqs := 0.0
	for _, r := range s.Rates {
		reqs += r
	}
	// Before a controller is seen and a pod made there is nothing to
	// count: a dash, not a 0/0 that reads like a result.
	running, desired, created := demo.Thousands(s.Running), demo.Thousands(s.Desired), demo.Thousands(s.Created)
	extra := fmt.Sprintf("extra %d in all, %d now", s.Extra, s.Surplus())
	if s.Idle() {
		running, desired, created, extra = "–", "–", "–", "extra –"
	}
	if s.Extra > 0 || s.Surplus() > 0 {
		extra = c.style(extra, bold+red)
	}
	return fmt.Sprintf("  %s  %5s/%-5s running  %6s goroutines  %7s req/s  %6s created  %s",
		c.style(name, bold+colour), running, desired, demo.Thousands(s.Goroutines),
		demo.FormatRate(reqs), created, extra)
}

// wrap breaks text into lines of at most width runes, indented.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		n := len([]rune(word))
		if i > 0 && line+1+n > width {
			b.WriteString("\n" + indent)
			line = 0
		} else if i > 0 {
			b.WriteByte(' ')
			line++
		} else {
			b.WriteString(indent)
		}
		b.WriteString(word)
		line += n
	}
	return b.String()
}

// printResults writes the table of rows and the verdicts.
func (c *console) printResults(talk demo.Talk, rows []demo.Row, vs []demo.Verdict) {
	nameW, unitW, valW := len("result"), 0, len("today")
	for _, r := range rows {
		nameW = max(nameW, len(r.Label()))
		unitW = max(unitW, len(r.Unit))
		valW = max(valW, len([]rune(r.Legacy)), len([]rune(r.Modern)))
	}
	heads := [2]string{"2014", "today"}
	for i, d := range talk.Designs {
		if i < 2 {
			heads[i] = d.Short
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n", c.style("Results, side by side", bold))
	fmt.Fprintf(&b, "  %-*s  %-*s  %s  %s\n", nameW, "", unitW, "", c.pad(c.style(heads[0], bold+violet), valW), c.pad(c.style(heads[1], bold+teal), valW))
	for _, r := range rows {
		left := r.Legacy
		if r.Missing != "" {
			left = "none"
		}
		l, m := fmt.Sprintf("%*s", valW, left), fmt.Sprintf("%*s", valW, r.Modern)
		switch r.Better {
		case "legacy":
			l = c.style(l, bold+green)
		case "modern":
			m = c.style(m, bold+green)
		}
		fmt.Fprintf(&b, "  %-*s  %-*s  %s  %s  %s\n", nameW, r.Label(), unitW, r.Unit, l, m, c.style(r.Diff, dim))
	}
	noted := map[string]bool{}
	for _, r := range rows {
		if r.Note != "" && !noted[r.Note] {
			noted[r.Note] = true
			fmt.Fprintf(&b, "  %s\n", c.style(r.Name+": "+r.Note+".", dim))
		}
	}
	if len(vs) > 0 {
		b.WriteString("\n")
	}
	for _, v := range vs {
		if v.OK {
			fmt.Fprintf(&b, "  %s %s showed what its design must\n", c.style("✓", green), v.Design)
		} else {
			fmt.Fprintf(&b, "  %s %s did not show its point this time: %s\n", c.style("✗", red), v.Design, v.Why)
		}
	}
	c.printf("%s", b.String())
}

// pad widens s, which may carry invisible styling, to width visible runes.
func (c *console) pad(s string, width int) string {
	visible := len([]rune(stripStyle(s)))
	if visible >= width {
		return s
	}
	return strings.Repeat(" ", width-visible) + s
}

func stripStyle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
