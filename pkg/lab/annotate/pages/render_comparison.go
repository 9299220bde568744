package pages

// Writing the side-by-side pages: each row's explanation and history,
// and each side's excerpts in its own column.

import (
	"html/template"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
	"github.com/kube-rewind/kube-rewind/pkg/lab/source"
)

// WriteComparisons writes the side-by-side pages, in the order of
// Comparisons.
func WriteComparisons(w *annotate.Writer) error {
	for _, c := range Comparisons {
		if err := writeComparison(w, c); err != nil {
			return err
		}
	}
	return nil
}

type rowView struct {
	ID, Then, Now  string
	N              int
	Explain        template.HTML
	History        template.HTML
	Legacy, Modern []annotate.ExcerptView
}

type compareView struct {
	annotate.Head
	Heading                string
	Intro, Comments        template.HTML
	LegacyFile, LegacyHref string
	ModernFile, ModernHref string
	Rows                   []rowView
}

// ModernMissing is what a modern cell says when the modern file is not in
// the tree the docs were built from.
const ModernMissing = "modern file not present in this build of the docs"

func writeComparison(w *annotate.Writer, c Comparison) error {
	v := compareView{
		Head:       annotate.Head{Title: c.Title + " · kube-rewind", BodyClass: "compare-page"},
		Heading:    c.Title,
		Intro:      annotate.Inline(c.Intro),
		Comments:   annotate.Inline(annotate.ExcerptComments),
		LegacyFile: c.LegacyFile,
		ModernFile: c.ModernFile,
	}
	if w.Tree().File(c.LegacyFile) != nil {
		v.LegacyHref = annotate.PageName(c.LegacyFile)
	}
	modernPresent := w.Tree().File(c.ModernFile) != nil
	if modernPresent {
		v.ModernHref = annotate.PageName(c.ModernFile)
	}
	run := LoadHistoryRun(w.Tree().Root)
	for i, r := range c.Rows {
		rv := rowView{ID: r.ID, Then: r.Then, Now: r.Now, N: i + 1, Explain: annotate.Inline(r.Explain)}
		if len(r.History) > 0 {
			rv.History = historyNote(r.History, run)
		}
		for _, ref := range r.Legacy {
			ev, err := w.Excerpt(ref, source.Legacy, "2014 build")
			if err != nil {
				return err
			}
			rv.Legacy = append(rv.Legacy, ev)
		}
		if !modernPresent {
			rv.Modern = []annotate.ExcerptView{{Missing: c.ModernFile + ": " + ModernMissing + "."}}
		} else {
			for _, ref := range r.Modern {
				ev, err := w.Excerpt(ref, source.Modern, "modern build")
				if err != nil {
					return err
				}
				rv.Modern = append(rv.Modern, ev)
			}
		}
		v.Rows = append(v.Rows, rv)
	}
	return w.Execute(templates, c.Page, "compare", v)
}
