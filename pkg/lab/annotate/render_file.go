package annotate

// A file page's rows, as docco, pycco and Go by Example set them: every
// comment block, above a declaration or inside a function body, opens a
// row with its prose on the left and the code up to the next comment block
// on the right. A body with comments is split across rows; each row's
// code keeps its own indentation and real line numbers, so the function
// still reads down the right column. A comment at the end of a code line
// stays with its code.

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// fileSections renders f's sections as page rows, one row per section.
func fileSections(f *source.File, h *highlighted) ([]sectionView, error) {
	var rows []sectionView
	for _, sec := range f.Sections {
		code, err := h.renderRanges(sec.Code, true)
		if err != nil {
			return nil, err
		}
		rows = append(rows, sectionView{
			ID:    fmt.Sprintf("s%d", len(rows)+1),
			Prose: ProseHTML(sec.Prose),
			Code:  code,
		})
	}
	return rows, nil
}
