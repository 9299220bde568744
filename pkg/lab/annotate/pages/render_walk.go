package pages

// Writing the walk: each stop's prose, and its excerpts with the lines
// that matter highlighted, in one column or in the two designs' columns;
// then how long the page takes to read, counted on the page itself.

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strings"

	"golang.org/x/net/html"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

type stopView struct {
	ID, Part, Title, Process     string
	N                            int
	Explain                      template.HTML
	LegacyExplain, ModernExplain template.HTML
	Both, Legacy, Modern         []annotate.ExcerptView
	// Next, on the last stop only, says where to read on.
	Next template.HTML
}

type walkView struct {
	annotate.Head
	Heading         string
	Intro, Comments template.HTML
	Length          template.HTML
	Stops           []stopView
}

// How long the walk takes to read, reckoned from what the page shows:
// its text at ReadingWords words a minute, and its code at ReadingLines
// lines an hour.
//
// ReadingWords is the mean silent reading rate of adults for English
// non-fiction, 238 words a minute, from a meta-analysis of 190 studies
// (Brysbaert 2019, ReadingWordsSource). ReadingLines is the fastest pace
// at which code reviewers still read closely enough to find its defects,
// 500 lines an hour, from SmartBear's study of 2 500 reviews at Cisco
// (ReadingLinesSource): a reader new to this code, following each
// excerpt's highlighted lines, reads it no faster than that. A reader new
// to the code took 45 to 50 minutes over the page as it stood before this
// measure (2 601 words and 352 lines of code, counted this way), which
// this reckons at 54: it errs on the long side. (The page then said 35.)
const (
	ReadingWords       = 238
	ReadingWordsSource = "https://doi.org/10.1016/j.jml.2019.104047"
	ReadingLines       = 500
	ReadingLinesSource = "https://smartbear.com/resources/white-papers/11-best-practices-for-peer-code-review"
)

// WalkLength is what the walk shows, counted on the page as built.
type WalkLength struct {
	Stops, Excerpts, Files, Lines, Words int
}

// Minutes is the reading time at the stated pace, rounded up.
func (l WalkLength) Minutes() int {
	return int(math.Ceil(float64(l.Words)/ReadingWords + float64(l.Lines)*60/ReadingLines))
}

// HTML states the length and how the reading time was reckoned.
func (l WalkLength) HTML() template.HTML {
	return template.HTML(fmt.Sprintf("%d stops, %d excerpts from %d files: %d lines of code and %d words of text. "+
		`About %d minutes to read: the text at %d words a minute, the mean silent reading rate of adults for `+
		`English non-fiction (<a href="%s">Brysbaert 2019</a>, 190 studies), and the code at %d lines an hour, `+
		`the fastest pace at which reviewers still read code closely enough to find its defects (<a href="%s">SmartBear's `+
		`study of 2 500 reviews at Cisco</a>). Both are counted on this page when it is built: every word of its text, `+
		`captions, the list of stops and the comments the excerpts keep included, and every line of code the `+
		`excerpts show. Opening a file's page is not counted. A reader new to the code took 45 to 50 minutes over an `+
		`earlier version of this page that this reckons at 54.`,
		l.Stops, l.Excerpts, l.Files, l.Lines, l.Words, l.Minutes(), ReadingWords, ReadingWordsSource, ReadingLines, ReadingLinesSource))
}

// measureWalkPage counts, on the rendered walk, the words a reader reads
// (the text of <main> outside the code and outside the length paragraph
// itself, and the comments the excerpts keep) and the lines of code its
// excerpts show.
func measureWalkPage(page []byte) (WalkLength, error) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return WalkLength{}, err
	}
	var l WalkLength
	files := map[string]bool{}
	var words strings.Builder
	var visit func(n *html.Node, inMain bool)
	visit = func(n *html.Node, inMain bool) {
		if n.Type == html.ElementNode {
			classes := " " + attrOf(n, "class") + " "
			switch {
			case n.Data == "main":
				inMain = true
			case strings.Contains(classes, " length "):
				return
			case strings.Contains(classes, " excerpt "):
				l.Excerpts++
			case n.Data == "a" && strings.Contains(classes, " src "):
				files[textOf(n)] = true
			case strings.Contains(classes, " line ") && isCommentLine(n):
				// A whole-line comment the excerpt keeps is read as
				// text.
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if attrOf(c, "class") != "ln" {
						words.WriteString(textOf(c))
					}
				}
				words.WriteString(" ")
				return
			case strings.Contains(classes, " line "):
				if !isBlankLine(n) {
					l.Lines++
				}
				return
			case strings.Contains(classes, " ln "), strings.Contains(classes, " gap "):
				return
			}
		}
		if n.Type == html.TextNode && inMain {
			words.WriteString(n.Data)
			words.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			visit(c, inMain)
		}
	}
	visit(doc, false)
	l.Words = len(strings.Fields(words.String()))
	l.Files = len(files)
	return l, nil
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func textOf(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(textOf(c))
	}
	return b.String()
}

// isBlankLine reports whether a highlighted line holds nothing but white
// space after its line number.
func isBlankLine(line *html.Node) bool {
	for c := line.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && attrOf(c, "class") == "ln" {
			continue
		}
		if strings.TrimSpace(textOf(c)) != "" {
			return false
		}
	}
	return true
}

// isCommentLine reports whether a highlighted line holds nothing but a
// comment: its line number aside, every token is white space or a
// comment (chroma's c1).
func isCommentLine(line *html.Node) bool {
	comment := false
	var visit func(n *html.Node) bool
	visit = func(n *html.Node) bool {
		if n.Type == html.ElementNode {
			switch attrOf(n, "class") {
			case "ln":
				return true
			case "c1":
				comment = true
				return true
			}
		}
		if n.Type == html.TextNode && strings.TrimSpace(n.Data) != "" {
			return false
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if !visit(c) {
				return false
			}
		}
		return true
	}
	return visit(line) && comment
}

// stopRef is the markup for a link to another stop.
var stopRef = regexp.MustCompile(`\{stop:([a-z0-9-]+)\}`)

// walkProse renders text as Inline does and turns {stop:<id>} into a link
// to that stop; an unknown id is an error, so a renamed stop cannot leave
// a dead reference behind.
func walkProse(text string, numbers map[string]int) (template.HTML, error) {
	var err error
	out := stopRef.ReplaceAllStringFunc(string(annotate.Inline(text)), func(m string) string {
		id := stopRef.FindStringSubmatch(m)[1]
		n, ok := numbers[id]
		if !ok {
			err = fmt.Errorf("%s: %q names no stop", WalkPage, m)
			return m
		}
		return fmt.Sprintf(`<a href="#%s">stop %d</a>`, id, n)
	})
	return template.HTML(out), err
}

// walkNext is what the last stop says to read next: the side-by-side
// pages and the history, by their own titles.
func walkNext() template.HTML {
	var pages []string
	for _, c := range Comparisons {
		pages = append(pages, fmt.Sprintf(`<a href="%s">%s</a>`, c.Page, template.HTMLEscapeString(c.Title)))
	}
	return template.HTML(fmt.Sprintf("Where next: %s set the two controllers' designs side by side, step by step, "+
		`2014 beside today; <a href="%s">%s</a> gives each change between them, when it came, why, and what it measurably bought.`,
		strings.Join(pages, " and "), annotate.HistoryPage, template.HTMLEscapeString(HistoryTitle)))
}

// RenderWalk renders the walk and measures it: the index states its
// length too.
func RenderWalk(w *annotate.Writer) ([]byte, WalkLength, error) {
	v := walkView{
		Head:     annotate.Head{Title: WalkTitle + " · kube-rewind", BodyClass: "walk-page"},
		Heading:  WalkTitle,
		Intro:    annotate.Inline(WalkIntro),
		Comments: annotate.Inline(annotate.ExcerptComments),
	}
	numbers := map[string]int{}
	for i, s := range Walk {
		numbers[s.ID] = i + 1
	}
	excerpts := func(refs []source.Ref, b source.Variant, label string) ([]annotate.ExcerptView, error) {
		var out []annotate.ExcerptView
		for _, ref := range refs {
			ev, err := w.Excerpt(ref, b, label)
			if err != nil {
				return nil, err
			}
			out = append(out, ev)
		}
		return out, nil
	}
	for i, s := range Walk {
		sv := stopView{ID: s.ID, Part: s.Part, Title: s.Title, Process: s.Process, N: i + 1}
		var err error
		prose := func(text string) template.HTML {
			if err != nil || strings.TrimSpace(text) == "" {
				return ""
			}
			var h template.HTML
			h, err = walkProse(text, numbers)
			return h
		}
		sv.Explain = prose(s.Explain)
		sv.LegacyExplain = prose(s.LegacyExplain)
		sv.ModernExplain = prose(s.ModernExplain)
		if err != nil {
			return nil, WalkLength{}, err
		}
		// Shared code is read from the default build, which compiles it.
		if sv.Both, err = excerpts(s.Both, source.Legacy, "both builds"); err != nil {
			return nil, WalkLength{}, err
		}
		if sv.Legacy, err = excerpts(s.Legacy, source.Legacy, "2014 build"); err != nil {
			return nil, WalkLength{}, err
		}
		if sv.Modern, err = excerpts(s.Modern, source.Modern, "modern build"); err != nil {
			return nil, WalkLength{}, err
		}
		if i == len(Walk)-1 {
			sv.Next = walkNext()
		}
		v.Stops = append(v.Stops, sv)
	}
	render := func() ([]byte, error) {
		var buf bytes.Buffer
		if err := templates.ExecuteTemplate(&buf, "walk", v); err != nil {
			return nil, fmt.Errorf("%s: %v", WalkPage, err)
		}
		return buf.Bytes(), nil
	}
	// The page is rendered once to be measured, and again with its
	// length, which the measure leaves out.
	first, err := render()
	if err != nil {
		return nil, WalkLength{}, err
	}
	length, err := measureWalkPage(first)
	if err != nil {
		return nil, WalkLength{}, err
	}
	length.Stops = len(Walk)
	v.Length = length.HTML()
	out, err := render()
	if err != nil {
		return nil, WalkLength{}, err
	}
	return out, length, nil
}
