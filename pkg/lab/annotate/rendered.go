package annotate

// Markup that another tool rendered, the project's Markdown pages and the
// history run's report: its plain text, and its HTML made to follow the
// pages' own rules for citations and line breaks.

import (
	"io"
	"strings"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/net/html"
)

// PlainText is the text of the Markdown node n of src as rendered,
// without markup: what a code host makes a heading's anchor from.
func PlainText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// LinkHistoryInHTML links the history citations in the text of rendered
// HTML, outside links, code and preformatted blocks, and lets inline code
// break between names, as the pages' own prose does.
func LinkHistoryInHTML(s string) (string, error) {
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	open := map[string]int{}
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return b.String(), nil
			}
			return "", z.Err()
		case html.StartTagToken:
			if name, _ := z.TagName(); isVerbatim(string(name)) {
				open[string(name)]++
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); open[string(name)] > 0 {
				open[string(name)]--
			}
		case html.TextToken:
			text := html.UnescapeString(string(z.Raw()))
			switch {
			case open["a"]+open["code"]+open["pre"] == 0:
				b.WriteString(linkHistoryText(text))
				continue
			case open["code"] > 0 && open["pre"] == 0:
				// Inline code breaks between names on a narrow
				// screen, never inside one, as on the other pages.
				b.WriteString(inlineCode(text))
				continue
			case open["pre"] > 0:
				b.WriteString(preText(text))
				continue
			}
		}
		b.Write(z.Raw())
	}
}

func isVerbatim(tag string) bool { return tag == "a" || tag == "code" || tag == "pre" }

// linkHistoryText escapes s, links the history citations in it, and lets
// a long path or name in it break as softCode says, so that one long test
// name cannot push a page past a phone's edge.
func linkHistoryText(s string) string {
	var b strings.Builder
	from := 0
	for i := 0; i < len(s); i++ {
		if !historyCited(s, i) {
			continue
		}
		names, end, _ := historyNames(s, i+len(historyWord))
		for _, n := range names {
			b.WriteString(softCode(s[from:n.from]))
			b.WriteString(historyLink(s[n.from:n.to]))
			from = n.to
		}
		i = max(i, end-1)
	}
	b.WriteString(softCode(s[from:]))
	return b.String()
}
