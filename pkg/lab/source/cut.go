package source

// One excerpt cut straight from the repository, for a page outside the
// annotated site: talk mode's code cards name their code as the walk and
// the side-by-side pages do, by declaration, and are cut when the deck is
// made, so that they follow the code.

import (
	"errors"
	"fmt"
	"strings"
)

// Cut finds ref in the Go files of ref.Dir under the repository at root,
// as the given build compiles them (Legacy, the default build, or
// Modern), and cuts it as the site's excerpts are cut. A name not found,
// or a focus or mark that no line holds, is an error: the excerpt would
// not show what its reader was promised.
func Cut(root string, ref Ref, build Variant) (Excerpt, error) {
	p, err := LoadPackage(root, ref.Dir)
	if err != nil {
		return Excerpt{}, fmt.Errorf("%s: %v", ref.Dir, err)
	}
	if p == nil {
		return Excerpt{}, fmt.Errorf("%s holds no Go files", ref.Dir)
	}
	var files []*File
	for _, f := range p.Files {
		if f.Variant == Shared || f.Variant == build {
			files = append(files, f)
		}
	}
	name := build.Label()
	if name == "" {
		name = "both builds"
	}
	ex := IndexDecls(files).Excerpt(ref, name)
	switch {
	case ex.Missing != "":
		return ex, errors.New(ex.Missing)
	case ex.Note != "":
		return ex, fmt.Errorf("%s in %s: %s", ref.Name, ref.Dir, ex.Note)
	}
	return ex, nil
}

// Lines are the excerpt's lines in order, each with its number; a zero
// number stands for lines left out between two ranges.
func (ex Excerpt) Lines() []NumberedLine {
	var out []NumberedLine
	for i, r := range ex.Ranges {
		if i > 0 {
			out = append(out, NumberedLine{})
		}
		for l := r.From; l <= r.To; l++ {
			text := ex.File.Lines[l-1]
			out = append(out, NumberedLine{N: l, Text: text, Comment: strings.HasPrefix(strings.TrimSpace(text), "//")})
		}
	}
	for i := range out {
		for _, m := range ex.Marked {
			if out[i].N == m {
				out[i].Marked = true
			}
		}
	}
	return out
}

// NumberedLine is a line of an excerpt.
type NumberedLine struct {
	N    int
	Text string
	// Comment says the line is a whole-line comment; Marked that it is one
	// of the lines the excerpt is about.
	Comment, Marked bool
}
