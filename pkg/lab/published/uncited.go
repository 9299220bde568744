package published

import (
	"regexp"
	"strings"
)

// A Constant is a figure of a design or of the laboratory that prose may
// write without citing a page, because it is not measured: the 2014
// manager's 10 s tick, a scenario's size. Go names the constant it
// mirrors; Text is how prose writes it, made from the constant's value,
// so that prose which still writes an old value no longer matches.
type Constant struct {
	Go   string
	Text string
}

// An UncitedFigure is a figure of prose that looks measured and is no
// reference.
type UncitedFigure struct {
	Line int
	Text string
}

// number is how prose writes a number: 1 000 in groups, or 4.13.
const number = `[+−-]?\d{1,3}(?: \d{3})+(?:\.\d+)?|[+−-]?\d+(?:\.\d+)?`

// measuredLooking are the figures that look measured: a number with a
// unit of time, CPU, memory, share or rate, or a count of pods,
// goroutines, requests, runs or writes; and words that compare runs.
var measuredLooking = regexp.MustCompile(`\d+ h \d+ min|\d+ min \d+ s|(?:` + number + `)(?: ?(?:CPU s|CPU ms|ms|µs|s|min|h|MiB|MB|GiB|GB|kB|KiB|%|×|pods/s|req/min|writes/s|creates/s|/s|/min)|(?: more| fewer| extra)? (?:pods?|goroutines?|requests?|runs?|writes?|LISTs?|GETs?|PUTs?|POSTs?|events?|sockets?|creates?|deletes?|bindings?|figures?|mutants?|times))(?:[^\pL\pN]|$)` +
	`|\b(?:twice|(?:two|three|four|five|six|seven|eight|nine|ten) times|a third|a quarter|half as)\b`)

// Uncited returns the figures of a Markdown text that look measured but
// are neither references nor allowed constants. Code (fenced and
// inline), HTML comments, references' values and links' targets are
// not prose.
func Uncited(text string, allowed []Constant) []UncitedFigure {
	prose := maskNonProse(text)
	ok := map[string]bool{}
	for _, c := range allowed {
		ok[c.Text] = true
	}
	var out []UncitedFigure
	for _, m := range measuredLooking.FindAllStringIndex(prose, -1) {
		if m[0] > 0 && isWordByte(prose[m[0]-1]) {
			continue
		}
		fig := strings.TrimRightFunc(prose[m[0]:m[1]], func(r rune) bool { return !isFigureEnd(r) })
		if ok[fig] || isYear(fig) {
			continue
		}
		out = append(out, UncitedFigure{Line: 1 + strings.Count(prose[:m[0]], "\n"), Text: fig})
	}
	return out
}

var (
	fence       = regexp.MustCompile("(?ms)^ {0,3}```.*?^ {0,3}```[^\n]*$")
	inlineCode  = regexp.MustCompile("`[^`\n]*`")
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	linkTarget  = regexp.MustCompile(`\]\([^)\s]*\)`)
)

// maskNonProse blanks what is not prose, keeping every offset and line:
// references with their values, code, HTML comments, links' targets, and
// the published lines that rcbench publish -readme writes from the
// stamps.
func maskNonProse(text string) string {
	b := []byte(text)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	// A reference's value first, with its markers.
	for _, re := range []*regexp.Regexp{citePattern, fence, htmlComment, inlineCode, linkTarget} {
		for _, m := range re.FindAllIndex(b, -1) {
			blank(m[0], m[1])
		}
	}
	if begin, _, end, ok := readmeMarkers(text); ok {
		blank(begin, end)
	}
	return string(b)
}

// isYear says a figure is a year ("the 2014 deletes"), not a count.
func isYear(fig string) bool {
	n, _, _ := strings.Cut(fig, " ")
	return len(n) == 4 && (strings.HasPrefix(n, "19") || strings.HasPrefix(n, "20"))
}
