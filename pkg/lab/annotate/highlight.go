package annotate

// Syntax highlighting with chroma. Each file is tokenised once, as a
// whole, so a token that spans lines (a raw string) is coloured right; the
// sections then render slices of its lines with their real line numbers.

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"regexp"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// codeStyle is chroma's GitHub light theme: dark text on a light ground,
// with enough contrast to read and to print.
const codeStyle = "github"

// highlighted is a file's tokens, one slice per line.
type highlighted struct {
	lines [][]chroma.Token
}

// highlight tokenises f's source.
func highlight(f *source.File) (*highlighted, error) {
	lexer := lexers.Get("go")
	if lexer == nil {
		return nil, fmt.Errorf("chroma has no Go lexer")
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, string(f.Src()))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", f.Path, err)
	}
	return &highlighted{lines: chroma.SplitTokensIntoLines(it.Tokens())}, nil
}

// formatter returns chroma's HTML formatter with numbering from base: CSS
// classes (the stylesheet is written once) and line numbers. With
// linkable, each line gets an id (L<n>) so other pages can link to it;
// excerpts leave it off, since two files on one page would repeat ids.
// The marked lines (real line numbers) get chroma's "hl" class.
func formatter(base int, linkable bool, marked ...int) *chromahtml.Formatter {
	var hl [][2]int
	for _, l := range marked {
		hl = append(hl, [2]int{l, l})
	}
	return chromahtml.New(
		chromahtml.WithClasses(true),
		chromahtml.WithLineNumbers(true),
		chromahtml.WithLinkableLineNumbers(linkable, "L"),
		chromahtml.BaseLineNumber(base),
		chromahtml.TabWidth(4),
		chromahtml.HighlightLines(hl),
	)
}

// render writes lines r.From..r.To as one highlighted block.
func (h *highlighted) render(r source.LineRange, linkable bool, marked ...int) (template.HTML, error) {
	var tokens []chroma.Token
	for l := r.From; l <= r.To && l-1 < len(h.lines); l++ {
		tokens = append(tokens, h.lines[l-1]...)
	}
	style := styles.Get(codeStyle)
	var buf bytes.Buffer
	if err := formatter(r.From, linkable, marked...).Format(&buf, style, chroma.Literator(tokens...)); err != nil {
		return "", err
	}
	return template.HTML(selectorBreaks.ReplaceAllString(linkHistoryInCode(buf.String()), "$1<wbr>$2")), nil
}

// selectorBreaks finds, in highlighted code, the "." that follows a
// call's ")" and leads to the next name of a chain, and the "(" that opens
// a call's arguments with a name (chroma gives ")." and "(" as
// punctuation, the names as n… classes). A line may break after either,
// as Go's own style breaks a long chain of calls or a long list of
// arguments, where the screen wraps long lines; on a narrow screen code
// scrolls and never wraps.
var selectorBreaks = regexp.MustCompile(`(<span class="p">[^<]*(?:\)\.|\()</span>)(<span class="n)`)

// renderRanges renders several ranges, with a gap mark between ranges that
// are not adjacent, and the marked lines highlighted.
func (h *highlighted) renderRanges(rs []source.LineRange, linkable bool, marked ...int) (template.HTML, error) {
	var buf bytes.Buffer
	for i, r := range rs {
		if i > 0 {
			buf.WriteString(`<div class="gap" aria-hidden="true">⋮</div>`)
		}
		block, err := h.render(r, linkable, marked...)
		if err != nil {
			return "", err
		}
		buf.WriteString(string(block))
	}
	return template.HTML(buf.String()), nil
}

// writeChromaCSS writes the highlighting rules for the stylesheet.
func writeChromaCSS(w io.Writer) error {
	return formatter(1, true).WriteCSS(w, styles.Get(codeStyle))
}
