package site

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate/pages"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// byID returns the element of doc with the given id, or nil.
func byID(doc *html.Node, id string) *html.Node {
	var found *html.Node
	walk(doc, func(n *html.Node) {
		if found == nil && attr(n, "id") == id {
			found = n
		}
	})
	return found
}

// TestTheWalkLinksEveryStopToItsLines follows the walk as a reader does:
// every stop has its section, and each of its file links opens a generated
// page at a line that exists there.
func TestTheWalkLinksEveryStopToItsLines(t *testing.T) {
	_, docs := site(t)
	doc := docs[pages.WalkPage]
	if doc == nil {
		t.Fatalf("%s was not written", pages.WalkPage)
	}
	if body := text(doc); strings.Contains(body, "{stop:") {
		t.Errorf("%s has an unresolved stop reference", pages.WalkPage)
	}
	line := regexp.MustCompile(`^L[0-9]+$`)
	for i, s := range pages.Walk {
		sec := byID(doc, s.ID)
		if sec == nil {
			t.Errorf("stop %d (%s) has no section", i+1, s.ID)
			continue
		}
		if want := len(s.Both) + len(s.Legacy) + len(s.Modern); count(sec, "excerpt") != want {
			t.Errorf("stop %s shows %d excerpts, want %d", s.ID, count(sec, "excerpt"), want)
		}
		if count(sec, "hl") == 0 {
			t.Errorf("stop %s highlights no line", s.ID)
		}
		links := 0
		walk(sec, func(n *html.Node) {
			if n.Data != "a" || !hasClass(n, "src") {
				return
			}
			links++
			u, err := url.Parse(attr(n, "href"))
			if err != nil {
				t.Errorf("stop %s: bad href %q", s.ID, attr(n, "href"))
				return
			}
			target := docs[path.Clean(u.Path)]
			switch {
			case target == nil:
				t.Errorf("stop %s links to %s, which was not generated", s.ID, u.Path)
			case !line.MatchString(u.Fragment):
				t.Errorf("stop %s links to %s without a line anchor", s.ID, u)
			case byID(target, u.Fragment) == nil:
				t.Errorf("stop %s links to %s, which has no line %s", s.ID, u.Path, u.Fragment)
			}
		})
		if links == 0 {
			t.Errorf("stop %s links to no annotated page", s.ID)
		}
		if (len(s.Both) > 0) == (len(s.Legacy)+len(s.Modern) > 0) {
			t.Errorf("stop %s must name either shared code or each design's code", s.ID)
		}
	}
}

func TestTheIndexAndTheReadmeLeadWithTheWalk(t *testing.T) {
	_, docs := site(t)
	found := false
	walk(docs["index.html"], func(n *html.Node) {
		if hasClass(n, "walk-card") {
			walk(n, func(a *html.Node) {
				found = found || (a.Data == "a" && attr(a, "href") == pages.WalkPage)
			})
		}
	})
	if !found {
		t.Errorf("index.html does not feature %s", pages.WalkPage)
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Reading the source\n")
	if !ok {
		t.Fatal("README.md has no section \"Reading the source\"")
	}
	first := regexp.MustCompile(`\]\(([^)]+)\)|_output/docs/[a-z0-9.-]+\.html`).FindString(section)
	if !strings.Contains(first, pages.WalkPage) {
		t.Errorf("the first page README's \"Reading the source\" names is %q, want %s", first, pages.WalkPage)
	}
}

// TestSideBySideRowsAreMarkedAndBalanced: each row highlights what it is
// about on both sides, the contents put each design under its own heading,
// and no excerpt runs much past what fits beside the other side.
func TestSideBySideRowsAreMarkedAndBalanced(t *testing.T) {
	_, docs := site(t)
	for _, c := range pages.Comparisons {
		doc := docs[c.Page]
		if doc == nil {
			t.Fatalf("%s was not written", c.Page)
		}
		if count(doc, "then") < 2*len(c.Rows) || count(doc, "now") < 2*len(c.Rows) {
			t.Errorf("%s: the contents do not set each row's two designs in their own cells", c.Page)
		}
		for _, r := range c.Rows {
			row := byID(doc, r.ID)
			if row == nil {
				t.Errorf("%s has no row %s", c.Page, r.ID)
				continue
			}
			walk(row, func(n *html.Node) {
				if hasClass(n, "col") && count(n, "hl") == 0 {
					t.Errorf("%s, row %s: the %s column highlights no line", c.Page, r.ID, attr(n, "class"))
				}
			})
			for _, side := range []struct {
				refs []source.Ref
				b    source.Variant
			}{{r.Legacy, source.Legacy}, {r.Modern, source.Modern}} {
				for _, ref := range side.refs {
					// A name or a mark not found is TestEveryRowNamesCodeThatExists's
					// to report; here only the length counts.
					ex, _ := source.Cut(repoRoot, ref, side.b)
					n := 0
					for _, r := range ex.Ranges {
						n += r.To - r.From + 1
					}
					if n > source.MaxExcerptLines+6 {
						t.Errorf("%s, row %s: %s runs %d lines; mark its lines so it is cut", c.Page, r.ID, ref.Name, n)
					}
				}
			}
		}
	}
}

// TestNoExcerptHidesTheStatementAroundAHighlightedLine reads the tour and
// the side-by-side pages as a reader does: for every highlighted line of
// every excerpt, the lines that open the function and each statement
// around it (func, for, range, go, defer, if, switch, select, case), as
// go/parser finds them in the file, must be shown too.
func TestNoExcerptHidesTheStatementAroundAHighlightedLine(t *testing.T) {
	_, docs := site(t)
	excerptPages := []string{pages.WalkPage}
	for _, c := range pages.Comparisons {
		excerptPages = append(excerptPages, c.Page)
	}
	checked := 0
	for _, page := range excerptPages {
		walk(docs[page], func(fig *html.Node) {
			if !hasClass(fig, "excerpt") {
				return
			}
			var file string
			shown, marked := map[int]bool{}, []int{}
			walk(fig, func(n *html.Node) {
				if n.Data == "figcaption" && file == "" {
					file = strings.Fields(text(n))[0]
				}
				if !hasClass(n, "line") {
					return
				}
				walk(n, func(ln *html.Node) {
					if hasClass(ln, "ln") {
						var l int
						fmt.Sscanf(text(ln), "%d", &l)
						shown[l] = true
						if hasClass(n, "hl") {
							marked = append(marked, l)
						}
					}
				})
			})
			if file == "" || len(marked) == 0 {
				return
			}
			src, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(file)))
			if err != nil {
				t.Errorf("%s: %v", page, err)
				return
			}
			fset := token.NewFileSet()
			af, err := parser.ParseFile(fset, file, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			line := func(p token.Pos) int { return fset.Position(p).Line }
			for _, m := range marked {
				ast.Inspect(af, func(n ast.Node) bool {
					if n == nil || line(n.Pos()) > m || line(n.End()) < m {
						return false
					}
					switch n.(type) {
					case *ast.FuncDecl, *ast.FuncLit, *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.GoStmt, *ast.DeferStmt,
						*ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.CaseClause, *ast.CommClause:
						if !shown[line(n.Pos())] {
							t.Errorf("%s: %s line %d is highlighted, but line %d, which opens the %T around it, is hidden",
								page, file, m, line(n.Pos()), n)
						}
					}
					return true
				})
				checked++
			}
		})
	}
	if checked < 100 {
		t.Errorf("only %d highlighted lines were checked", checked)
	}
}

// shownExcerpts reads the excerpts of a tour or side-by-side page as a
// reader sees them: for each, its file and the line numbers it shows.
func shownExcerpts(doc *html.Node) (files []string, shown []map[int]bool) {
	walk(doc, func(fig *html.Node) {
		if !hasClass(fig, "excerpt") {
			return
		}
		file, lines := "", map[int]bool{}
		walk(fig, func(n *html.Node) {
			if n.Data == "figcaption" && file == "" {
				file = strings.Fields(text(n))[0]
			}
			if hasClass(n, "ln") {
				var l int
				fmt.Sscanf(text(n), "%d", &l)
				lines[l] = true
			}
		})
		if file != "" && len(lines) > 0 {
			files = append(files, file)
			shown = append(shown, lines)
		}
	})
	return files, shown
}

// wholeLineComments returns the blocks of whole-line // comments of a
// source file, as go/parser finds them: runs of consecutive comment
// lines, each with the first line of code after it (0 if none).
func wholeLineComments(t *testing.T, file string) (lines []string, blocks [][3]int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	lines = strings.Split(string(src), "\n")
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	comment := map[int]bool{}
	for _, g := range af.Comments {
		for _, c := range g.List {
			pos := fset.Position(c.Pos())
			if strings.HasPrefix(c.Text, "//") && !source.IsDirective(c.Text) && strings.TrimSpace(lines[pos.Line-1][:pos.Column-1]) == "" {
				comment[pos.Line] = true
			}
		}
	}
	for l := 1; l <= len(lines); l++ {
		if !comment[l] {
			continue
		}
		b := [3]int{l, l, 0}
		for comment[b[1]+1] {
			b[1]++
		}
		for next := b[1] + 1; next <= len(lines); next++ {
			if strings.TrimSpace(lines[next-1]) != "" && !comment[next] {
				b[2] = next
				break
			}
		}
		blocks = append(blocks, b)
		l = b[1]
	}
	return lines, blocks
}

// TestNoExcerptCutsAComment reads every excerpt of the tour and the
// side-by-side pages: each block of whole-line comments in the file is
// shown whole, above the code it is about, or not at all. A block that
// is shown must say what the page's prose does not: it opens a paragraph
// with Ours: (where the port departs from 2014), or a Ref keeps it by
// name.
func TestNoExcerptCutsAComment(t *testing.T) {
	_, docs := site(t)
	keep := map[string][]string{}
	refs := func(page string, rs ...[]source.Ref) {
		for _, r := range rs {
			for _, ref := range r {
				keep[page] = append(keep[page], ref.Keep...)
			}
		}
	}
	for _, s := range pages.Walk {
		refs(pages.WalkPage, s.Both, s.Legacy, s.Modern)
	}
	excerptPages := []string{pages.WalkPage}
	for _, c := range pages.Comparisons {
		excerptPages = append(excerptPages, c.Page)
		for _, r := range c.Rows {
			refs(c.Page, r.Legacy, r.Modern)
		}
	}
	checked, shownBlocks := 0, 0
	for _, page := range excerptPages {
		files, shown := shownExcerpts(docs[page])
		for i, file := range files {
			lines, blocks := wholeLineComments(t, file)
			first, last := len(lines), 0
			for l := range shown[i] {
				first, last = min(first, l), max(last, l)
			}
			for _, b := range blocks {
				n := 0
				for l := b[0]; l <= b[1]; l++ {
					if shown[i][l] {
						n++
					}
				}
				if b[1] < first-3 || b[0] > last {
					continue
				}
				checked++
				text := strings.Join(lines[b[0]-1:b[1]], "\n")
				switch {
				case n == 0:
				case n < b[1]-b[0]+1:
					t.Errorf("%s: the excerpt of %s shows %d of the %d lines of the comment at line %d: %q",
						page, file, n, b[1]-b[0]+1, b[0], strings.TrimSpace(lines[b[0]-1]))
				case b[2] == 0 || !shown[i][b[2]]:
					t.Errorf("%s: the excerpt of %s shows the comment at line %d but not line %d, the code it is about",
						page, file, b[0], b[2])
				default:
					shownBlocks++
					said := strings.Contains(text, "// Ours:")
					for _, k := range keep[page] {
						said = said || strings.Contains(text, k)
					}
					if !said {
						t.Errorf("%s: the excerpt of %s shows the comment at line %d, which neither says Ours: nor is kept by name: %q",
							page, file, b[0], strings.TrimSpace(lines[b[0]-1]))
					}
				}
			}
		}
	}
	if checked < 100 || shownBlocks == 0 {
		t.Errorf("only %d comment blocks were checked, %d of them shown", checked, shownBlocks)
	}
}

// TestTheLastStopSaysWhereToReadNext: the tour ends with links to the
// side-by-side pages and the history.
func TestTheLastStopSaysWhereToReadNext(t *testing.T) {
	_, docs := site(t)
	last := byID(docs[pages.WalkPage], pages.Walk[len(pages.Walk)-1].ID)
	if last == nil {
		t.Fatal("the last stop has no section")
	}
	want := []string{annotate.HistoryPage}
	for _, c := range pages.Comparisons {
		want = append(want, c.Page)
	}
	for _, page := range want {
		found := false
		walk(last, func(n *html.Node) { found = found || n.Data == "a" && attr(n, "href") == page })
		if !found {
			t.Errorf("the last stop does not link to %s", page)
		}
	}
}

// TestTheWalksReadingTimeIsCountedOnThePage recounts the walk as a reader
// meets it: the words of its text (the length paragraph aside), the
// comments its excerpts keep counted as text, and its lines of code, at
// the rates the page states and cites. The page and the index must give
// the minutes that count makes.
func TestTheWalksReadingTimeIsCountedOnThePage(t *testing.T) {
	_, docs := site(t)
	doc := docs[pages.WalkPage]
	words, lines := 0, 0
	var main *html.Node
	walk(doc, func(n *html.Node) {
		if n.Data == "main" {
			main = n
		}
	})
	var count func(n *html.Node)
	count = func(n *html.Node) {
		if hasClass(n, "length") || hasClass(n, "ln") || hasClass(n, "gap") {
			return
		}
		if hasClass(n, "line") {
			code := ""
			comment := false
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c, func(e *html.Node) { comment = comment || hasClass(e, "c1") })
				if !hasClass(c, "ln") {
					code += text(c)
				}
			}
			trimmed := strings.TrimSpace(code)
			switch {
			case trimmed == "":
			case comment && strings.HasPrefix(trimmed, "//"):
				words += len(strings.Fields(trimmed))
			default:
				lines++
			}
			return
		}
		if n.Type == html.TextNode {
			words += len(strings.Fields(n.Data))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			count(c)
		}
	}
	count(main)
	minutes := int(math.Ceil(float64(words)/pages.ReadingWords + float64(lines)*60/pages.ReadingLines))
	var length *html.Node
	walk(doc, func(n *html.Node) {
		if hasClass(n, "length") {
			length = n
		}
	})
	if length == nil {
		t.Fatal("the walk states no length")
	}
	got := text(length)
	for _, want := range []string{
		fmt.Sprintf("%d lines of code and %d words of text", lines, words),
		fmt.Sprintf("About %d minutes to read", minutes),
		fmt.Sprintf("%d words a minute", pages.ReadingWords),
		fmt.Sprintf("%d lines an hour", pages.ReadingLines),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the walk's length says %q; want it to say %q", got, want)
		}
	}
	for _, src := range []string{pages.ReadingWordsSource, pages.ReadingLinesSource} {
		found := false
		walk(length, func(n *html.Node) { found = found || attr(n, "href") == src })
		if !found {
			t.Errorf("the walk's length does not link %s", src)
		}
	}
	if !strings.Contains(text(docs["index.html"]), fmt.Sprintf("about %d minutes to read", minutes)) {
		t.Errorf("the index does not give the walk's %d minutes", minutes)
	}
	if lines < 200 || words < 1000 {
		t.Errorf("only %d lines and %d words were counted", lines, words)
	}
}
