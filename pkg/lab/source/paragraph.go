package source

// Prose: comment lines grouped into paragraphs, lists and preformatted
// blocks by Go's doc comment parser. What the text says inline (code
// spans, references, links) is the pages' to read.

import (
	"go/doc/comment"
	"regexp"
	"strings"
)

// BlockKind says how a paragraph is shown.
type BlockKind int

const (
	// Text is an ordinary paragraph.
	Text BlockKind = iota
	// List is a bulleted or numbered list (indented "- item" lines).
	List
	// Pre is indented text shown as it is, like a code block in a Go doc
	// comment.
	Pre
)

// Markers open a paragraph or a sentence that points at a liberty taken
// by the port (Ours:) or at the other variant (2014:, Modern:).
var markers = []string{"Ours", "2014", "Modern"}

// Paragraph is one block of prose.
type Paragraph struct {
	Kind BlockKind
	// Marker is "Ours", "2014" or "Modern" when the paragraph opens with
	// that word and a colon (which Text keeps).
	Marker string
	// Text is the paragraph's text, its lines joined by spaces (by
	// newlines for Pre).
	Text string
	// Items are a List's entries.
	Items []string
}

// Paragraphs groups comment lines (without their //) into blocks by Go's
// doc comment syntax, as go/doc/comment parses it: blank lines separate
// paragraphs, and an indented span is a list when it opens with a bullet
// or a number and preformatted text otherwise. Three habits of the
// comments here that the parser would read otherwise are kept (see
// prepare).
//
// The parser's inline reading is set aside: Paragraphs keeps the text and
// the annotated pages read it (pkg/lab/annotate's Inline), because they
// understand what Go doc comments do not (backtick code, issue
// references, history citations, the markers) and give a bracketed name
// no link to Go documentation.
func Paragraphs(lines []string) []Paragraph {
	var parser comment.Parser
	doc := parser.Parse(strings.Join(prepare(lines), "\n"))
	var out []Paragraph
	for _, b := range doc.Content {
		switch b := b.(type) {
		case *comment.Paragraph:
			if text := plainText(b.Text); text != closer {
				out = append(out, Paragraph{Kind: Text, Text: text, Marker: MarkerAt(text)})
			}
		case *comment.Heading:
			// Go's older rule makes a short capitalised line between
			// two paragraphs a heading, and such lines are common in
			// narrative: it stays the paragraph its author wrote.
			text := plainText(b.Text)
			out = append(out, Paragraph{Kind: Text, Text: text, Marker: MarkerAt(text)})
		case *comment.List:
			l := Paragraph{Kind: List}
			for _, item := range b.Items {
				var parts []string
				for _, c := range item.Content {
					if p, ok := c.(*comment.Paragraph); ok {
						parts = append(parts, plainText(p.Text))
					}
				}
				l.Items = append(l.Items, strings.Join(parts, " "))
			}
			out = append(out, l)
		case *comment.Code:
			out = append(out, Paragraph{Kind: Pre, Text: strings.TrimSuffix(b.Text, "\n")})
		}
	}
	// A paragraph of "[name]: URL" lines defines links in Go's syntax
	// and leaves the text; the pages have no such links, so the
	// definitions are shown rather than lost.
	for _, l := range doc.Links {
		text := "[" + l.Text + "]: " + l.URL
		out = append(out, Paragraph{Kind: Text, Text: text})
	}
	return out
}

// closer is a line with no indentation that prepare puts where the parser
// must close what is open; its paragraph is dropped.
const closer = "\x00"

var (
	// goListItem opens a list item by Go's rule: a bullet, or a number
	// and "." or ")", then space.
	goListItem = regexp.MustCompile(`^[ \t]*(?:[-*+•]|[0-9]+[.)])[ \t]+\S`)
	// markdownItem opens a list written as in Markdown: "- item" with no
	// indentation.
	markdownItem = regexp.MustCompile(`^- +\S`)
)

// prepare readies comment lines for the parser, which reads a whole doc
// comment. Three habits of the comments here differ from that:
//   - A run of // lines keeps its indentation's meaning even when every
//     line is indented (a list or an example alone), where the parser
//     would first remove the indentation the lines share: the text opens
//     with a closer.
//   - A list may be written as in Markdown, "- item" lines with no
//     indentation opening a block, and more items after them: they are
//     indented, as Go's syntax wants a list.
//   - A blank line ends a list, and indented text after it is an example,
//     where Go's syntax would run the list to the end of the indented
//     span and make the example more of the last item: a closer goes
//     between. Comments inside functions, which gofmt leaves as written,
//     are written this way.
func prepare(lines []string) []string {
	out := []string{closer, ""}
	inSpan, inList := false, false
	for i, line := range lines {
		afterBlank := i == 0 || lines[i-1] == ""
		switch {
		case line == "":
		case !isIndented(line) && (inList && goListItem.MatchString(line) || afterBlank && markdownItem.MatchString(line)):
			// An example before it would take the list in.
			if inSpan && !inList {
				out = append(out, closer, "")
			}
			line = "  " + line
			inSpan, inList = true, true
		case !isIndented(line):
			inSpan, inList = false, false
		case !inSpan:
			inSpan, inList = true, goListItem.MatchString(line)
		case inList && afterBlank && !goListItem.MatchString(line):
			out = append(out, closer, "")
			inList = false
		}
		out = append(out, line)
	}
	return out
}

func isIndented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// plainText is parsed text as it was written, its lines joined by
// spaces: a URL the parser linked is its address again, and a name it
// took for a link to Go documentation keeps its brackets.
func plainText(ts []comment.Text) string {
	var b strings.Builder
	for _, t := range ts {
		switch t := t.(type) {
		case comment.Plain:
			b.WriteString(string(t))
		case comment.Italic:
			b.WriteString(string(t))
		case *comment.Link:
			if t.Auto {
				b.WriteString(plainText(t.Text))
			} else {
				b.WriteString("[" + plainText(t.Text) + "]")
			}
		case *comment.DocLink:
			b.WriteString("[" + plainText(t.Text) + "]")
		}
	}
	return strings.ReplaceAll(b.String(), "\n", " ")
}

// MarkerAt returns the marker that opens s ("Modern" for "Modern: …"),
// or "".
func MarkerAt(s string) string {
	for _, m := range markers {
		if strings.HasPrefix(s, m+":") {
			return m
		}
	}
	return ""
}
