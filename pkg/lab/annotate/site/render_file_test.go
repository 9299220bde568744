package site

import (
	"fmt"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// pageRows reads a file page's rows: for each line anchor, the row it
// sits in, and each row's prose as text.
func pageRows(doc *html.Node) (rowOf map[int]int, prose []string, codeComments []string) {
	rowOf = map[int]int{}
	prose = []string{""}
	walk(doc, func(sec *html.Node) {
		if !hasClass(sec, "sec") {
			return
		}
		n := len(prose)
		prose = append(prose, "")
		walk(sec, func(e *html.Node) {
			switch {
			case hasClass(e, "prose"):
				prose[n] = normalise(text(e))
			case hasClass(e, "ln") && strings.HasPrefix(attr(e, "id"), "L"):
				var l int
				fmt.Sscanf(attr(e, "id"), "L%d", &l)
				rowOf[l] = n
			case hasClass(e, "cl"):
				if t := strings.TrimSpace(text(e)); strings.HasPrefix(t, "//") && !source.IsDirective(t) {
					codeComments = append(codeComments, t)
				}
			}
		})
	})
	return rowOf, prose, codeComments
}

var spaces = regexp.MustCompile(`\s+`)

// normalise drops the markup a comment's text loses on the page
// (backticks, list bullets) and folds white space.
func normalise(s string) string {
	s = strings.ReplaceAll(s, "`", "")
	s = regexp.MustCompile(`(?m)^\s*(?:[-*•]|\d{1,2}[.)])\s+`).ReplaceAllString(s, "")
	return strings.TrimSpace(spaces.ReplaceAllString(s, " "))
}

// TestEveryCommentBlockIsProseBesideItsCode reads each file as go/parser
// sees it: every block of whole-line // comments, above a declaration or
// inside a body, must begin the prose column of the row that holds the
// code right after it, and no such comment may sit in the code column.
func TestEveryCommentBlockIsProseBesideItsCode(t *testing.T) {
	_, docs := site(t)
	s, err := Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range s.Packages {
		for _, f := range p.Files {
			doc := docs[annotate.PageName(f.Path)]
			if doc == nil {
				t.Errorf("%s has no page", f.Path)
				continue
			}
			rowOf, prose, inCode := pageRows(doc)
			for _, c := range inCode {
				t.Errorf("%s: a comment sits in the code column: %q", f.Path, c)
			}
			header := ""
			walk(doc, func(e *html.Node) {
				if hasClass(e, "page-head") {
					header = normalise(text(e))
				}
			})
			for _, b := range commentBlocks(t, f) {
				if b.next == 0 {
					continue
				}
				row := rowOf[b.next]
				if row == 0 {
					t.Errorf("%s: line %d, the code after the comment at line %d, has no anchor", f.Path, b.next, b.first)
					continue
				}
				// The introduction after the package clause is set in
				// the page's head or beside the first lines. Any other
				// block opens its row: its words come first in the prose
				// column, so a block whose words ended up inside another
				// row's prose (a comment in a body put into the
				// declaration's row) fails here.
				intro := strings.Contains(header, b.opening) || strings.Contains(prose[1], b.opening)
				if !strings.HasPrefix(prose[row], b.opening) && !intro {
					t.Errorf("%s: the row of line %d does not begin with the comment at line %d (%q); its prose is %q",
						f.Path, b.next, b.first, b.opening, prose[row])
				}
				for l := b.first; l < b.next; l++ {
					if rowOf[l] != 0 && strings.HasPrefix(strings.TrimSpace(f.Lines[l-1]), "//") {
						t.Errorf("%s: comment line %d is shown as code", f.Path, l)
					}
				}
				checked++
			}
		}
	}
	if checked < 500 {
		t.Errorf("only %d comment blocks were checked", checked)
	}
}

// block is a run of whole-line comments: its first line, the first code
// line after it (0 if none), and the opening words of its text.
type block struct {
	first, next int
	opening     string
}

// commentBlocks finds f's blocks of whole-line // comments with go/parser.
func commentBlocks(t *testing.T, f *source.File) []block {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f.Path, strings.Join(f.Lines, "\n")+"\n", parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	comment := map[int]string{}
	for _, g := range af.Comments {
		for _, c := range g.List {
			pos := fset.Position(c.Pos())
			line := f.Lines[pos.Line-1]
			if strings.HasPrefix(c.Text, "//") && !source.IsDirective(c.Text) && strings.TrimSpace(line[:pos.Column-1]) == "" {
				comment[pos.Line] = strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
			}
		}
	}
	var out []block
	for l := 1; l <= len(f.Lines); l++ {
		if !hasComment(comment, l) {
			continue
		}
		// A block runs over comment lines and the blank lines between
		// them, as the page merges them.
		b := block{first: l}
		var words []string
		for ; l <= len(f.Lines); l++ {
			if hasComment(comment, l) {
				words = append(words, strings.Fields(comment[l])...)
			} else if strings.TrimSpace(f.Lines[l-1]) != "" {
				b.next = l
				break
			}
		}
		if len(words) > 4 {
			words = words[:4]
		}
		b.opening = normalise(strings.Join(words, " "))
		out = append(out, b)
	}
	return out
}

func hasComment(m map[int]string, l int) bool {
	_, ok := m[l]
	return ok
}
