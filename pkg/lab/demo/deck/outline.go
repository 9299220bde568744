package deck

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gmtext "github.com/yuin/goldmark/text"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/published"
)

// A talk's outline is a plain Markdown file, which rcbench deck makes into
// a deck. The first heading (#) is the talk's title, and what follows it
// up to the first ## is the title card: each line of its paragraphs a line
// of the card (the speaker's name, the event). Each ## starts a slide,
// whose kind its section says on a line of its own:
//
//	recording: idle.html      a recording, after a card that places it on
//	                          the history's timeline (the section's text
//	                          goes on that card)
//	code: DIR NAME [today]    a declaration of the project's source, cut
//	                          by name (as make docs cuts its excerpts) from
//	                          the 2014 build, or today's; focus: TEXT keeps
//	                          its signature and the step holding TEXT, and
//	                          mark: TEXT, on as many lines as wanted, marks
//	                          the lines holding TEXT
//	timeline                  the changes of pkg/history, those the deck's
//	                          recordings show highlighted
//	summary                   each recording's figure, 2014 against today
//	waterfall                 the section's first list drawn as bars, from
//	                          one total to another step by step
//	                          (waterfall.go)
//
// and a section with none of these is a card of text: paragraphs, lists,
// code. A quote (> ...) anywhere is the speaker's notes for its slide,
// never on the projected card. "minutes: 20" under the title gives the
// talk's length to the presenter view. Recordings are named relative to
// the outline; code relative to the repository's top.

// Outline is a talk's outline, read.
type Outline struct {
	// File is where it was read from; recordings are relative to its
	// directory.
	File  string
	Title string
	// Minutes is the talk's planned length; 0 when not given.
	Minutes int
	// Lines are the title card's lines; Notes its notes.
	Lines    []string
	Notes    []Note
	Sections []Section
}

// Section is one ## of an outline: one slide, or for a recording, its
// card and itself.
type Section struct {
	Heading string
	// Kind is text, code, timeline, summary, waterfall or talk.
	Kind string
	// Body is the section's own text as HTML (escaped here), for the card.
	Body  string
	Notes []Note
	// Recording names a talk section's recording; Rec is it, read.
	Recording string
	Rec       *demo.Recording
	// Code names a code card's excerpt.
	Code CodeRef
	// Bars are a waterfall card's rows.
	Bars []Bar
}

// outlineMarkdown parses outlines: CommonMark with GitHub's tables and
// strike-through, raw HTML shown as text.
var outlineMarkdown = goldmark.New(goldmark.WithExtensions(extension.GFM))

// directive matches a section's line that says its kind.
var directive = regexp.MustCompile(`^(recording|code|focus|mark|minutes):\s*(.*)$|^(timeline|summary|waterfall)$`)

// ReadOutline reads the outline in file, and the recordings it names.
func ReadOutline(file string) (*Outline, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	o, err := ParseOutline(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	o.File = file
	for i := range o.Sections {
		s := &o.Sections[i]
		if s.Kind != "talk" {
			continue
		}
		path := s.Recording
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(file), path)
		}
		if s.Rec, err = demo.ReadRecording(path); err != nil {
			return nil, fmt.Errorf("%s, section %q: %v", file, s.Heading, err)
		}
	}
	return o, nil
}

// ParseOutline reads an outline's Markdown. The recordings it names are
// not read (ReadOutline reads them).
func ParseOutline(src []byte) (*Outline, error) {
	// A figure the outline cites from a published page is its value on
	// the card, as on a code host (published.Reference).
	src = []byte(published.Uncite(string(src)))
	doc := outlineMarkdown.Parser().Parse(gmtext.NewReader(src))
	o := &Outline{}
	var cur *Section
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= 2 {
			text := strings.TrimSpace(inlineText(h, src))
			switch {
			case h.Level == 1 && o.Title == "" && cur == nil:
				o.Title = text
			case h.Level == 1:
				return nil, fmt.Errorf("a second title (# %s): a talk has one; its slides are ## sections", text)
			default:
				o.Sections = append(o.Sections, Section{Heading: text, Kind: "text"})
				cur = &o.Sections[len(o.Sections)-1]
			}
			continue
		}
		if q, ok := n.(*ast.Blockquote); ok {
			notes := blockNotes(q, src)
			if cur == nil {
				o.Notes = append(o.Notes, notes...)
			} else {
				cur.Notes = append(cur.Notes, notes...)
			}
			continue
		}
		if p, ok := n.(*ast.Paragraph); ok {
			rest, err := o.directives(cur, p, src)
			if err != nil {
				return nil, err
			}
			if len(rest) == 0 {
				continue
			}
			if cur == nil {
				o.Lines = append(o.Lines, rest...)
				continue
			}
		}
		if l, ok := n.(*ast.List); ok && cur != nil && cur.Kind == "waterfall" && cur.Bars == nil {
			bars, err := parseBars(l, src)
			if err != nil {
				return nil, fmt.Errorf("section %q: %v", cur.Heading, err)
			}
			cur.Bars = bars
			continue
		}
		if cur == nil {
			if _, ok := n.(*ast.Paragraph); !ok {
				return nil, fmt.Errorf("under the title, only lines of text and notes (>): the title card holds no %s", strings.ToLower(n.Kind().String()))
			}
			continue
		}
		cur.Body += blockHTML(n, src)
	}
	if o.Title == "" {
		return nil, fmt.Errorf("no title: an outline starts with # and the talk's title")
	}
	if len(o.Sections) == 0 {
		return nil, fmt.Errorf("no slides: each ## starts one")
	}
	for _, s := range o.Sections {
		switch {
		case s.Kind == "code" && (s.Code.Dir == "" || s.Code.Name == ""):
			return nil, fmt.Errorf("section %q: code: wants a directory and a declaration, as code: pkg/controller ReplicationManager.syncReplicationController", s.Heading)
		case s.Kind == "text" && (len(s.Code.Mark) > 0 || s.Code.Focus != ""):
			return nil, fmt.Errorf("section %q: focus: and mark: belong to a code: section", s.Heading)
		case s.Kind == "waterfall" && s.Bars == nil:
			return nil, fmt.Errorf("section %q: waterfall: wants a list after it, one row a line: a label, a colon and a figure", s.Heading)
		case s.Kind == "talk" && s.Recording == "":
			return nil, fmt.Errorf("section %q: recording: names no file", s.Heading)
		}
	}
	return o, nil
}

// directives reads the lines of paragraph p that say its section's kind
// (or, under the title, the talk's length), and returns the others, as
// text, when the paragraph holds no directive at all.
func (o *Outline) directives(s *Section, p *ast.Paragraph, src []byte) ([]string, error) {
	var lines []string
	found := false
	for i := 0; i < p.Lines().Len(); i++ {
		seg := p.Lines().At(i)
		line := strings.TrimSpace(string(seg.Value(src)))
		m := directive.FindStringSubmatch(line)
		if m == nil {
			lines = append(lines, line)
			continue
		}
		found = true
		word, value := m[1]+m[3], strings.TrimSpace(m[2])
		if s == nil {
			if word != "minutes" {
				return nil, fmt.Errorf("%q under the title: it belongs to a ## section", line)
			}
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return nil, fmt.Errorf("minutes: %q: want the talk's length in whole minutes", value)
			}
			o.Minutes = n
			continue
		}
		if err := s.set(word, value); err != nil {
			return nil, fmt.Errorf("section %q: %v", s.Heading, err)
		}
	}
	if found {
		if len(lines) > 0 {
			return nil, fmt.Errorf("%q: a line that says a section's kind stands in a paragraph of its own (a blank line before and after)", lines[0])
		}
		return nil, nil
	}
	if s == nil {
		// The title card's lines, as text: each line of the paragraph.
		var out []string
		for _, l := range strings.Split(inlineText(p, src), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out, nil
	}
	return []string{"text"}, nil
}

// link matches a Markdown link, whose destination a recording: line may
// give instead of a bare name.
var link = regexp.MustCompile(`^\[[^\]]*\]\(([^)\s]+)\)$`)

// set applies one directive to s.
func (s *Section) set(word, value string) error {
	kind := map[string]string{"recording": "talk", "code": "code", "timeline": "timeline", "summary": "summary", "waterfall": "waterfall"}[word]
	if kind != "" {
		if s.Kind != "text" {
			return fmt.Errorf("%s: in a section that is already a %s; each ## is one slide", word, s.Kind)
		}
		s.Kind = kind
	}
	switch word {
	case "recording":
		if m := link.FindStringSubmatch(value); m != nil {
			value = m[1]
		}
		s.Recording = value
	case "code":
		f := strings.Fields(value)
		if len(f) == 3 && (f[2] == "today" || f[2] == "modern") {
			s.Code.Modern, f = true, f[:2]
		} else if len(f) == 3 && (f[2] == "2014" || f[2] == "legacy") {
			f = f[:2]
		}
		if len(f) != 2 {
			return fmt.Errorf("code: %q: want a directory and a declaration, and after them today to cut from today's build", value)
		}
		s.Code.Dir, s.Code.Name = strings.TrimSuffix(f[0], "/"), f[1]
	case "focus":
		s.Code.Focus = value
	case "mark":
		s.Code.Mark = append(s.Code.Mark, value)
	case "minutes":
		return fmt.Errorf("minutes: belongs under the title")
	}
	return nil
}

// blockNotes are a quote's paragraphs, as notes.
func blockNotes(q *ast.Blockquote, src []byte) []Note {
	var out []Note
	for n := q.FirstChild(); n != nil; n = n.NextSibling() {
		text := strings.Join(strings.Fields(inlineText(n, src)), " ")
		if text != "" {
			out = append(out, Note{Text: text})
		}
	}
	return out
}

// inlineText is n's text without markup: code spans keep their text,
// links their words; a soft line break is a new line.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte('\n')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			for i := 0; i < c.Segments.Len(); i++ {
				s := c.Segments.At(i)
				b.Write(s.Value(src))
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			for i := 0; i < c.Lines().Len(); i++ {
				s := c.Lines().At(i)
				b.Write(s.Value(src))
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// blockHTML renders one block of a card's text. Everything is escaped:
// raw HTML shows as text, a link as its words (a deck refers to nothing
// outside itself), an image as its description.
func blockHTML(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(n ast.Node)
	children := func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c)
		}
	}
	walk = func(n ast.Node) {
		switch n := n.(type) {
		case *ast.Paragraph:
			b.WriteString("<p>")
			children(n)
			b.WriteString("</p>")
		case *ast.TextBlock:
			// The text of an item of a tight list.
			children(n)
		case *ast.Heading:
			b.WriteString("<h3>")
			children(n)
			b.WriteString("</h3>")
		case *ast.List:
			tag := "ul"
			if n.IsOrdered() {
				tag = "ol"
			}
			b.WriteString("<" + tag + ">")
			children(n)
			b.WriteString("</" + tag + ">")
		case *ast.ListItem:
			b.WriteString("<li>")
			children(n)
			b.WriteString("</li>")
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			b.WriteString(`<pre class="plain">`)
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				b.WriteString(html.EscapeString(string(s.Value(src))))
			}
			b.WriteString("</pre>")
		case *ast.Text:
			b.WriteString(html.EscapeString(string(n.Segment.Value(src))))
			switch {
			case n.HardLineBreak():
				b.WriteString("<br>")
			case n.SoftLineBreak():
				b.WriteString(" ")
			}
		case *ast.String:
			b.WriteString(html.EscapeString(string(n.Value)))
		case *ast.CodeSpan:
			b.WriteString("<code>")
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					b.WriteString(html.EscapeString(string(t.Segment.Value(src))))
				}
			}
			b.WriteString("</code>")
		case *ast.Emphasis:
			tag := "em"
			if n.Level > 1 {
				tag = "strong"
			}
			b.WriteString("<" + tag + ">")
			children(n)
			b.WriteString("</" + tag + ">")
		case *ast.AutoLink:
			b.WriteString(html.EscapeString(string(n.Label(src))))
		case *ast.RawHTML:
			b.WriteString(html.EscapeString(inlineText(n, src)))
		case *ast.HTMLBlock:
			b.WriteString("<p>")
			for i := 0; i < n.Lines().Len(); i++ {
				s := n.Lines().At(i)
				b.WriteString(html.EscapeString(string(s.Value(src))))
			}
			b.WriteString("</p>")
		case *ast.ThematicBreak:
		default:
			// Links, images, strike-through, tables' cells: their words.
			children(n)
		}
	}
	walk(n)
	return b.String()
}

// cutCodeOf cuts a code section's excerpt, its errors naming the section.
func cutCodeOf(root string, s Section) (*Code, error) {
	c, err := cutCode(root, s.Code)
	if err != nil {
		return nil, fmt.Errorf("section %q: %v", s.Heading, err)
	}
	return c, nil
}
