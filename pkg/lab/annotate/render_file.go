package annotate

// A file page's rows. Comments outside functions sit beside the code they
// explain, as in docco. Comments inside a function body are set as notes
// between its lines instead, at the comment's own indentation, so that a
// function reads as one piece: beside it, a comment taller than the two
// lines it explains would push the rest of the function down and leave
// the code in fragments with gaps between them.

import (
	"fmt"
	"go/ast"
	"html/template"
	"strings"
)

// funcBodies returns the lines strictly inside each function body of f.
func funcBodies(f *File) []LineRange {
	var out []LineRange
	for _, d := range f.ast.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		from := f.fset.Position(fd.Body.Lbrace).Line + 1
		to := f.fset.Position(fd.Body.Rbrace).Line - 1
		if from <= to {
			out = append(out, LineRange{From: from, To: to})
		}
	}
	return out
}

// indentOf is the width of line's leading white space, a tab counting 4.
func indentOf(line string) int {
	n := 0
	for _, r := range line {
		switch r {
		case '\t':
			n += 4
		case ' ':
			n++
		default:
			return n
		}
	}
	return n
}

// fileSections renders f's sections as page rows, folding each section
// whose prose is inside a function body into the row before it.
func fileSections(f *File, h *highlighted) ([]sectionView, error) {
	bodies := funcBodies(f)
	inBody := func(l int) bool {
		for _, b := range bodies {
			if l >= b.From && l <= b.To {
				return true
			}
		}
		return false
	}
	var rows []sectionView
	var code strings.Builder
	flush := func() {
		if len(rows) > 0 {
			rows[len(rows)-1].Code = template.HTML(code.String())
		}
		code.Reset()
	}
	for _, sec := range f.Sections {
		if sec.ProseFrom > 0 && inBody(sec.ProseFrom) && len(rows) > 0 {
			fmt.Fprintf(&code, `<div class="inline-note" style="padding-left: calc(4.6em + %dch)"><div class="note-body">%s</div></div>`,
				indentOf(f.Lines[sec.ProseFrom-1]), ProseHTML(sec.Prose))
		} else {
			flush()
			rows = append(rows, sectionView{ID: fmt.Sprintf("s%d", len(rows)+1), Prose: ProseHTML(sec.Prose)})
		}
		block, err := h.renderRanges(sec.Code, true)
		if err != nil {
			return nil, err
		}
		code.WriteString(string(block))
	}
	flush()
	return rows, nil
}
