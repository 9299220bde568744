package source

// How a Go file becomes docco sections. Everything here works on line
// numbers taken from go/parser's comment list, never on raw text, so only
// real comments count.

import (
	"fmt"
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"regexp"
	"sort"
	"strings"
)

// Variant says which build of kube-rewind compiles a file.
type Variant int

const (
	// Shared files have no build constraint: both builds compile them.
	Shared Variant = iota
	// Legacy files compile only in the default (2014) build.
	Legacy
	// Modern files compile only with -tags modern.
	Modern
	// Other files carry some other constraint (none do today).
	Other
)

// Label is the build's name as the pages show it.
func (b Variant) Label() string {
	switch b {
	case Legacy:
		return "2014 (default build)"
	case Modern:
		return "modern (-tags modern)"
	case Other:
		return "other build constraint"
	}
	return ""
}

// Class is the CSS class of the build's badge.
func (b Variant) Class() string {
	switch b {
	case Legacy:
		return "legacy"
	case Modern:
		return "modern"
	case Other:
		return "other"
	}
	return "shared"
}

// LineRange is an inclusive range of 1-based line numbers.
type LineRange struct {
	From, To int
}

// Section is one docco section: prose, and the code it explains.
type Section struct {
	// Prose is the comment run above the code, split into paragraphs.
	Prose []Paragraph
	// ProseFrom and ProseTo are the lines the prose came from (0 when the
	// section has none).
	ProseFrom, ProseTo int
	// Code holds the code lines; more than one range when the introduction
	// was lifted out from between them.
	Code []LineRange
}

// File is one Go source file, parsed and split into sections.
type File struct {
	// Path is slash-separated and relative to the repository root.
	Path       string
	Package    string
	Variant    Variant
	Constraint string
	// PackageDoc is the package comment, when this file carries one.
	PackageDoc []Paragraph
	// Intro is the provenance paragraph after the package clause.
	Intro    []Paragraph
	Sections []Section
	Lines    []string
	// Comments are the file's blocks of whole-line // comments: runs of
	// consecutive comment lines, the introduction's included.
	Comments []LineRange

	src  []byte
	fset *token.FileSet
	ast  *ast.File
}

// ParseFile parses src (the content of the file at path) and splits it.
func ParseFile(path string, src []byte) (*File, error) {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	f := &File{
		Path:    path,
		Package: af.Name.Name,
		Lines:   splitLines(src),
		src:     src,
		fset:    fset,
		ast:     af,
	}
	f.Variant, f.Constraint = fileBuild(af)
	f.split()
	return f, nil
}

// splitLines returns src's lines without their line endings.
func splitLines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// fileBuild reads the //go:build line, if any.
func fileBuild(af *ast.File) (Variant, string) {
	for _, g := range af.Comments {
		if g.Pos() > af.Package {
			break
		}
		for _, c := range g.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				return Other, c.Text
			}
			text := expr.String()
			legacy := expr.Eval(func(tag string) bool { return false })
			modern := expr.Eval(func(tag string) bool { return tag == "modern" })
			switch {
			case legacy && modern:
				return Shared, text
			case legacy:
				return Legacy, text
			case modern:
				return Modern, text
			}
			return Other, text
		}
	}
	return Shared, ""
}

// directive matches comments that are instructions to tools, not prose:
// the same rule go/ast uses ("//go:build", "//line ", "//export ").
var directive = regexp.MustCompile(`^//(line |extern |export |[a-z0-9]+:[a-z0-9])`)

// IsDirective reports whether the comment c, its // included, is an
// instruction to a tool rather than prose.
func IsDirective(c string) bool { return directive.MatchString(c) }

// lineKind classifies one source line.
type lineKind int

const (
	codeLine lineKind = iota
	proseLine
	introLine
)

// split fills f.Sections, f.Intro and f.PackageDoc.
func (f *File) split() {
	kinds := make([]lineKind, len(f.Lines)+1)
	text := make([]string, len(f.Lines)+1)

	// A comment is prose when it is a // comment, not a directive, and
	// nothing but white space stands before it on its line.
	for _, g := range f.ast.Comments {
		for _, c := range g.List {
			if !strings.HasPrefix(c.Text, "//") || directive.MatchString(c.Text) {
				continue
			}
			pos := f.fset.Position(c.Pos())
			if pos.Line < 1 || pos.Line > len(f.Lines) {
				continue
			}
			line := f.Lines[pos.Line-1]
			if pos.Column-1 > len(line) || strings.TrimSpace(line[:pos.Column-1]) != "" {
				continue
			}
			kinds[pos.Line] = proseLine
			text[pos.Line] = commentText(c.Text)
		}
	}

	// The introduction: whole-line comment groups between the package
	// clause and the first declaration, unless the group is that
	// declaration's doc comment.
	var introLines []string
	for _, g := range f.introGroups() {
		from := f.fset.Position(g.Pos()).Line
		to := f.fset.Position(g.End()).Line
		if len(introLines) > 0 {
			introLines = append(introLines, "")
		}
		for l := from; l <= to; l++ {
			if kinds[l] == proseLine {
				kinds[l] = introLine
				introLines = append(introLines, text[l])
			}
		}
	}
	f.Intro = Paragraphs(introLines)
	if f.ast.Doc != nil {
		var doc []string
		for _, c := range f.ast.Doc.List {
			if strings.HasPrefix(c.Text, "//") && !directive.MatchString(c.Text) {
				doc = append(doc, commentText(c.Text))
			}
		}
		f.PackageDoc = Paragraphs(doc)
	}

	for l := 1; l < len(kinds); l++ {
		if kinds[l] == codeLine {
			continue
		}
		if n := len(f.Comments); n > 0 && f.Comments[n-1].To == l-1 {
			f.Comments[n-1].To = l
		} else {
			f.Comments = append(f.Comments, LineRange{From: l, To: l})
		}
	}
	f.Sections = buildSections(kinds, text, f.Lines)
	for i := range f.Sections {
		f.Sections[i].Code = trimRanges(f.Lines, f.Sections[i].Code)
	}
}

// introGroups returns the comment groups that make the introduction.
func (f *File) introGroups() []*ast.CommentGroup {
	limit := token.Pos(len(f.src) + 1 + f.fset.File(f.ast.Pos()).Base())
	var firstDoc *ast.CommentGroup
	if len(f.ast.Decls) > 0 {
		d := f.ast.Decls[0]
		limit = d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			firstDoc = d.Doc
		case *ast.GenDecl:
			firstDoc = d.Doc
		}
	}
	var groups []*ast.CommentGroup
	for _, g := range f.ast.Comments {
		if g.Pos() < f.ast.Name.End() {
			continue
		}
		if g.Pos() >= limit || g == firstDoc {
			break
		}
		groups = append(groups, g)
	}
	return groups
}

// commentText strips the // and one following space.
func commentText(c string) string {
	t := strings.TrimPrefix(c, "//")
	t = strings.TrimPrefix(t, " ")
	return strings.TrimRight(t, " \t")
}

// buildSections walks the classified lines. A prose run opens a new
// section once the current one has code; prose runs separated only by
// blank lines are merged, with a paragraph break between them.
func buildSections(kinds []lineKind, text, lines []string) []Section {
	var sections []Section
	var cur Section
	var proseLines []string
	// hasCode is set once the current section has a non-blank code line.
	hasCode := false
	flush := func() {
		cur.Prose = Paragraphs(proseLines)
		if len(cur.Prose) > 0 || len(cur.Code) > 0 {
			sections = append(sections, cur)
		}
		cur = Section{}
		proseLines = nil
		hasCode = false
	}
	addCode := func(l int) {
		n := len(cur.Code)
		if n > 0 && cur.Code[n-1].To == l-1 {
			cur.Code[n-1].To = l
			return
		}
		cur.Code = append(cur.Code, LineRange{From: l, To: l})
	}
	for l := 1; l < len(kinds); l++ {
		switch kinds[l] {
		case introLine:
			continue
		case proseLine:
			if hasCode {
				flush()
			}
			if len(cur.Code) > 0 && cur.ProseFrom > 0 {
				// Only blank lines since the last prose line: merge.
				cur.Code = nil
				proseLines = append(proseLines, "")
			}
			if cur.ProseFrom == 0 {
				cur.ProseFrom = l
			}
			cur.ProseTo = l
			proseLines = append(proseLines, text[l])
		default:
			addCode(l)
			if strings.TrimSpace(lines[l-1]) != "" {
				hasCode = true
			}
		}
	}
	flush()
	return sections
}

// trimRanges drops blank lines at the ends of each range, and empty ranges.
func trimRanges(lines []string, ranges []LineRange) []LineRange {
	var out []LineRange
	for _, r := range ranges {
		for r.From <= r.To && strings.TrimSpace(lines[r.From-1]) == "" {
			r.From++
		}
		for r.To >= r.From && strings.TrimSpace(lines[r.To-1]) == "" {
			r.To--
		}
		if r.From <= r.To {
			out = append(out, r)
		}
	}
	return out
}

// Src is the file's content as it was read.
func (f *File) Src() []byte { return f.src }

// Position describes where in f a line range is, for captions.
func (f *File) Position(r LineRange) string {
	if r.From == r.To {
		return fmt.Sprintf("%s:%d", f.Path, r.From)
	}
	return fmt.Sprintf("%s:%d–%d", f.Path, r.From, r.To)
}

// isComment reports whether line l is in one of f's comment blocks.
func (f *File) isComment(l int) bool {
	i := sort.Search(len(f.Comments), func(i int) bool { return f.Comments[i].To >= l })
	return i < len(f.Comments) && f.Comments[i].From <= l
}

// FirstCodeLine returns the first line in r that f's page shows as code
// (and so carries an L<n> anchor), or 0.
func (f *File) FirstCodeLine(r LineRange) int {
	best := 0
	for _, sec := range f.Sections {
		for _, c := range sec.Code {
			from, to := max(c.From, r.From), min(c.To, r.To)
			if from <= to && (best == 0 || from < best) {
				best = from
			}
		}
	}
	return best
}
