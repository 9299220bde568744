package deck

import (
	"fmt"
	"html"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// A code card shows a declaration of the project's own source, cut by
// name when the deck is made, as the annotated source's walk and
// side-by-side pages cut theirs: a renamed function or a changed line
// fails the deck's making instead of showing stale code.

// Code is the excerpt a code card shows.
type Code struct {
	// File is the file it was cut from, relative to the repository's top;
	// Build the build that compiles it, as the annotated source names it.
	File  string `json:"file"`
	Build string `json:"build,omitempty"`
	// Lines are the excerpt's lines; a line of number 0 stands for lines
	// left out.
	Lines []CodeLine `json:"lines"`
}

// CodeLine is one line of a code card: its number, its leading tabs,
// and the rest as highlighted HTML made here from the source (every
// character escaped).
type CodeLine struct {
	N       int    `json:"n,omitempty"`
	Indent  int    `json:"i,omitempty"`
	HTML    string `json:"h"`
	Marked  bool   `json:"m,omitempty"`
	Comment bool   `json:"c,omitempty"`
}

// CodeRef names a code card's excerpt: a declaration of one directory
// of the repository, in one build, as in the outline's code: line.
type CodeRef struct {
	source.Ref
	// Modern cuts it from the files the modern build compiles; the
	// default is the 2014 build.
	Modern bool
}

// cutCode cuts ref from the repository at root.
func cutCode(root string, ref CodeRef) (*Code, error) {
	build := source.Legacy
	if ref.Modern {
		build = source.Modern
	}
	ex, err := source.Cut(root, ref.Ref, build)
	if err != nil {
		return nil, fmt.Errorf("code: %s %s: %v", ref.Dir, ref.Name, err)
	}
	spans, err := highlightGo(ex.File.Lines)
	if err != nil {
		return nil, err
	}
	c := &Code{File: ex.File.Path, Build: ex.File.Variant.Label()}
	for _, l := range ex.Lines() {
		if l.N == 0 {
			c.Lines = append(c.Lines, CodeLine{HTML: "…"})
			continue
		}
		indent := len(l.Text) - len(strings.TrimLeft(l.Text, "\t"))
		c.Lines = append(c.Lines, CodeLine{N: l.N, Indent: indent, HTML: spans.line(l.N, indent), Marked: l.Marked, Comment: l.Comment})
	}
	return c, nil
}

// goSpans are a file's tokens, one slice per line.
type goSpans [][]chroma.Token

// highlightGo tokenises a whole Go file, so that a token spanning lines
// is coloured right.
func highlightGo(lines []string) (goSpans, error) {
	lexer := lexers.Get("go")
	if lexer == nil {
		return nil, fmt.Errorf("chroma has no Go lexer")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, strings.Join(lines, "\n")+"\n")
	if err != nil {
		return nil, err
	}
	return goSpans(chroma.SplitTokensIntoLines(it.Tokens())), nil
}

// line is line n (1-based) as HTML, without its first indent tabs: each
// token in a span whose class names its kind (k keyword, s string, n
// number, c comment, f function name), plain text otherwise.
func (g goSpans) line(n, indent int) string {
	if n < 1 || n > len(g) {
		return ""
	}
	var b strings.Builder
	skip := indent
	for _, tok := range g[n-1] {
		v := strings.TrimSuffix(tok.Value, "\n")
		for skip > 0 && strings.HasPrefix(v, "\t") {
			v, skip = v[1:], skip-1
		}
		if v == "" {
			continue
		}
		class := ""
		switch {
		case tok.Type.InCategory(chroma.Comment):
			class = "c"
		case tok.Type.InCategory(chroma.Keyword):
			class = "k"
		case tok.Type.InSubCategory(chroma.LiteralString):
			class = "s"
		case tok.Type.InSubCategory(chroma.LiteralNumber):
			class = "n"
		case tok.Type == chroma.NameFunction:
			class = "f"
		}
		text := html.EscapeString(strings.ReplaceAll(v, "\t", "  "))
		if class == "" {
			b.WriteString(text)
			continue
		}
		fmt.Fprintf(&b, `<span class="%s">%s</span>`, class, text)
	}
	return b.String()
}
