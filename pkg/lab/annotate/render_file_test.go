package annotate

import (
	"fmt"
	"testing"

	"golang.org/x/net/html"
)

// TestEveryFunctionReadsAsOnePiece: on every file page, each function's
// lines sit in one row, with its inner comments as notes between them, so
// the code is never broken into fragments beside taller prose.
func TestEveryFunctionReadsAsOnePiece(t *testing.T) {
	_, docs := site(t)
	s, err := Load(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range s.Packages {
		for _, f := range p.Files {
			doc := docs[PageName(f.Path)]
			if doc == nil {
				t.Errorf("%s has no page", f.Path)
				continue
			}
			// The row of every line anchor on the page.
			row := map[string]int{}
			n := 0
			walk(doc, func(e *html.Node) {
				if !hasClass(e, "sec") {
					return
				}
				n++
				walk(e, func(l *html.Node) {
					if id := attr(l, "id"); len(id) > 1 && id[0] == 'L' {
						row[id] = n
					}
				})
			})
			for _, b := range funcBodies(f) {
				first, last := f.firstCodeLine(b), 0
				for l := b.To; l >= b.From && last == 0; l-- {
					last = f.firstCodeLine(LineRange{From: l, To: l})
				}
				if first == 0 || last == 0 {
					continue
				}
				a, z := row[fmt.Sprintf("L%d", first)], row[fmt.Sprintf("L%d", last)]
				if a == 0 || a != z {
					t.Errorf("%s: the function body at lines %d–%d spans rows %d to %d", f.Path, b.From, b.To, a, z)
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d function bodies were checked", checked)
	}
}
