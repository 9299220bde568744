package annotate

// History citations: "(history: name)" in a comment or a page's text
// becomes a link to the catalogue's entry on the history page, and a page
// that cites a name the catalogue lacks is not written.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
)

// HistoryPage is the catalogue's page; each entry's anchor is its name.
const HistoryPage = "history.html"

// span is a byte range of a string.
type span struct{ from, to int }

// historyWord opens a citation of the catalogue: "(history: burst-cap)",
// "(2016; history: controller-ref)", "(history: burst-cap, slow-start)".
const historyWord = "history:"

// historyCited reports whether s[i:] opens a citation: "history:" right
// after "(", "; " or ", ". A bare "history:" elsewhere is ordinary text.
func historyCited(s string, i int) bool {
	if !strings.HasPrefix(s[i:], historyWord) {
		return false
	}
	before := s[:i]
	return strings.HasSuffix(before, "(") || strings.HasSuffix(before, "; ") || strings.HasSuffix(before, ", ")
}

// historyNames reads the names, separated by commas, that follow a
// citation's "history:" at s[i:], up to the first text that is no name.
// more says that s ended where another name was due (after the colon or
// a comma): a citation that a comment wraps onto its next line.
func historyNames(s string, i int) (names []span, end int, more bool) {
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9' || s[j] == '-' && j > i) {
			j++
		}
		if j == i {
			return names, i, i == len(s)
		}
		names = append(names, span{i, j})
		i = j
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		return names, i, false
	}
}

// historyLink is the link to a catalogue entry.
func historyLink(name string) string {
	return `<a class="hist" href="` + HistoryPage + "#" + name + `">` + name + `</a>`
}

// commentSpan finds chroma's comment tokens in highlighted HTML.
var commentSpan = regexp.MustCompile(`<span class="c1">([^<]*)</span>`)

// linkHistoryInCode turns the citations inside the comments of
// highlighted code into links, following a citation that a comment wraps
// onto its next line.
func linkHistoryInCode(code string) string {
	more := false
	return commentSpan.ReplaceAllStringFunc(code, func(m string) string {
		body := commentSpan.FindStringSubmatch(m)[1]
		var b strings.Builder
		from := 0
		link := func(names []span) {
			for _, n := range names {
				b.WriteString(body[from:n.from])
				b.WriteString(historyLink(body[n.from:n.to]))
				from = n.to
			}
		}
		i := 0
		if more {
			var names []span
			names, i, more = historyNames(body, len("//"))
			link(names)
		}
		for ; i < len(body); i++ {
			// A citation may open a comment line that goes on from one
			// ending in "(" or ";".
			if historyCited(body, i) || i == len("// ") && strings.HasPrefix(body[i:], historyWord) {
				var names []span
				names, i, more = historyNames(body, i+len(historyWord))
				link(names)
			}
		}
		b.WriteString(body[from:])
		return `<span class="c1">` + b.String() + `</span>`
	})
}

// historyHref finds the links to the history page's entries.
var historyHref = regexp.MustCompile(`href="` + regexp.QuoteMeta(HistoryPage) + `#([^"]*)"`)

// checkHistoryLinks fails when a page links an entry the catalogue does
// not have: a "(history: name)" with a name that is misspelt or gone.
func checkHistoryLinks(page string, data []byte) error {
	var unknown []string
	for _, m := range historyHref.FindAllSubmatch(data, -1) {
		if _, err := history.Get(string(m[1])); err != nil {
			unknown = append(unknown, string(m[1]))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("%s cites (history: %s), not in pkg/history's catalogue (known: %s)",
			page, strings.Join(unknown, ", "), strings.Join(history.Names(), ", "))
	}
	return nil
}
