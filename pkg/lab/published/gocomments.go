package published

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// measuredInGo are the figures a Go comment may not write, fewer than
// the prose's measuredLooking, since comments speak of code, whose
// periods and limits are figures too: a number with a unit of CPU, of
// microseconds, of memory or of a share; a number before × or right
// before x (a ratio); a count of goroutines; a number in digits before
// "times". Plain durations (seconds, minutes) and numbers in words
// ("twice", "three times", "a third") pass, and so does a number of
// times "a" or "per" something, a rate or a product (the profiler's
// samples a second, steps of some times a power of ten), which code
// sets.
var measuredInGo = regexp.MustCompile(`(?:` + number + `)(?: ?(?:CPU s|CPU ms|µs|MiB|MB|GiB|GB|kB|KiB|%|×)|x| (?:goroutines?|times(?: (?:a|per)\b)?))(?:[^\pL\pN]|$)`)

// UncitedInGo keeps Go comments from copying a measured figure: a comment
// cannot hold a reference (see Reference), so it says which page measured
// a figure instead of writing it. It parses every Go file of the
// repository at root but tests (whose figures are what they set and
// assert), build output and hidden folders (names starting with _ or .),
// testdata and vendor, and returns each figure of a comment that looks
// measured (measuredInGo) and is not an allowed constant's Text: a limit
// the code sets is one, in pkg/lab/publish's allow-list. A Text may go on
// past its figure with the words that follow it ("90 % of a core"), so
// that a figure common on its own is allowed only where it is the
// constant; prose, whose check reads a figure alone, cannot write such a
// constant without citing it. No marker exempts a figure: a comment that
// shows a format writes it with placeholders ("<value> on the <page>
// page").
func UncitedInGo(root string, allowed []Constant) ([]Drift, error) {
	var ok []string
	for _, c := range allowed {
		ok = append(ok, c.Text)
	}
	var drifts []Drift
	fset := token.NewFileSet()
	err := walkTree(root, func(rel, path string, d fs.DirEntry) error {
		if !strings.HasSuffix(d.Name(), ".go") || strings.HasSuffix(d.Name(), "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, g := range f.Comments {
			for _, u := range uncitedInComment(commentText(g), ok) {
				drifts = append(drifts, Drift{File: rel, Line: fset.Position(g.Pos()).Line + u.Line - 1, Written: u.Text,
					Why: "a Go comment copies a figure that looks measured: say which page measured it instead, or, for a constant of the code, allow it in pkg/lab/publish's constants.go"})
			}
		}
		return nil
	})
	sort.SliceStable(drifts, func(i, j int) bool {
		if drifts[i].File != drifts[j].File {
			return drifts[i].File < drifts[j].File
		}
		return drifts[i].Line < drifts[j].Line
	})
	return drifts, err
}

// commentText is a comment group's text without its markers (// or
// /* */), a line of the text for each line of the source.
func commentText(g *ast.CommentGroup) string {
	var lines []string
	for _, c := range g.List {
		t := c.Text
		if strings.HasPrefix(t, "/*") {
			t = strings.TrimSuffix(t[2:], "*/")
		} else {
			t = strings.TrimPrefix(t, "//")
		}
		lines = append(lines, t)
	}
	return strings.Join(lines, "\n")
}

// uncitedInComment returns the figures of a comment's text that
// UncitedInGo reports, with their lines in it from 1. A figure may run
// over a line's end: "times" at one's end, "a second" at the next's.
func uncitedInComment(text string, allowed []string) []UncitedFigure {
	// The text with every run of spaces and line ends as one space; at[i]
	// is where flat's byte i is in text.
	var flat []byte
	var at []int
	for i := 0; i < len(text); i++ {
		if isSpace(text[i]) {
			if len(flat) > 0 && flat[len(flat)-1] == ' ' {
				continue
			}
			flat, at = append(flat, ' '), append(at, i)
			continue
		}
		flat, at = append(flat, text[i]), append(at, i)
	}
	var out []UncitedFigure
	for _, m := range measuredInGo.FindAllIndex(flat, -1) {
		if m[0] > 0 && isWordByte(flat[m[0]-1]) {
			continue
		}
		fig := strings.TrimRightFunc(string(flat[m[0]:m[1]]), func(r rune) bool { return !isFigureEnd(r) })
		if isAllowed(fig, string(flat[m[0]:]), allowed) || strings.HasSuffix(fig, " a") || strings.HasSuffix(fig, " per") {
			continue
		}
		out = append(out, UncitedFigure{Line: 1 + strings.Count(text[:at[m[0]]], "\n"), Text: fig})
	}
	return out
}

// isAllowed says the figure fig, at the start of rest, is an allowed
// constant's text, or starts one that rest goes on with.
func isAllowed(fig, rest string, allowed []string) bool {
	for _, a := range allowed {
		if a == fig || strings.HasPrefix(a, fig+" ") && strings.HasPrefix(rest, a) {
			return true
		}
	}
	return false
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
