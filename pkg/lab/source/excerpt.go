package source

// Excerpts, for the annotated source's side-by-side pages and walk and
// for talk mode's code cards, found by declaration name with go/ast so
// they follow the code as it changes.

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// Ref names declarations to excerpt from one directory.
type Ref struct {
	// Dir is the package directory, relative to the repository root.
	Dir string
	// Name is a function or type name, Type.Method for a method, or a
	// const or var name. Alternatives are separated by "|"; the first one
	// found is used. A bare name that is no function, type, const or var
	// matches a method of that name on any type.
	Name string
	// Focus, when set, narrows a function to its signature and the one
	// commented step (docco section) whose code contains this text.
	Focus string
	// Mark names the lines the excerpt is about: each code line containing
	// one of these texts is highlighted, and the first one is where the
	// link to the file's page points. An excerpt longer than
	// MaxExcerptLines keeps only its signature and the marked lines, each
	// with a line or two after it.
	Mark []string
	// Keep names the comment blocks the excerpt shows: each block of
	// whole-line comments containing one of these texts is shown whole
	// above its code. The page's prose says what the others said, so
	// they are left out, except those that open a paragraph with Ours:,
	// which say where the port departs from 2014 and stay wherever their
	// code is shown.
	Keep []string
}

// Excerpt is what a Ref found: lines of one file, or a note saying why
// there are none.
type Excerpt struct {
	Ref    Ref
	Name   string
	File   *File
	Ranges []LineRange
	// Marked are the highlighted lines, in order.
	Marked []int
	// Note explains a fallback, e.g. a focus text that was not found.
	Note string
	// Missing is set when nothing was found, and says what.
	Missing string
}

// declSpan is one named declaration in a file.
type declSpan struct {
	file *File
	node ast.Node
	// from includes the doc comment; to is the node's last line.
	from, to int
	// sig is the function signature's line range (zero for non-funcs).
	sig LineRange
}

// Decls are the declarations of some files by name (as in Ref.Name).
type Decls struct {
	exact   map[string]declSpan
	methods map[string]declSpan
}

// IndexDecls indexes the top-level declarations of files, in order.
func IndexDecls(files []*File) *Decls {
	idx := &Decls{exact: map[string]declSpan{}, methods: map[string]declSpan{}}
	add := func(m map[string]declSpan, name string, s declSpan) {
		if _, dup := m[name]; !dup {
			m[name] = s
		}
	}
	for _, f := range files {
		line := func(p token.Pos) int { return f.fset.Position(p).Line }
		span := func(doc *ast.CommentGroup, n ast.Node) declSpan {
			from := line(n.Pos())
			if doc != nil {
				from = line(doc.Pos())
			}
			return declSpan{file: f, node: n, from: from, to: line(n.End())}
		}
		for _, d := range f.ast.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				s := span(d.Doc, d)
				if d.Body != nil {
					s.sig = LineRange{From: line(d.Pos()), To: line(d.Body.Lbrace)}
				}
				if d.Recv == nil || len(d.Recv.List) == 0 {
					add(idx.exact, d.Name.Name, s)
					continue
				}
				add(idx.exact, recvName(d.Recv.List[0].Type)+"."+d.Name.Name, s)
				add(idx.methods, d.Name.Name, s)
			case *ast.GenDecl:
				single := d.Lparen == token.NoPos
				for _, spec := range d.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						if single {
							add(idx.exact, spec.Name.Name, span(d.Doc, d))
						} else {
							add(idx.exact, spec.Name.Name, span(spec.Doc, spec))
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							if single {
								add(idx.exact, n.Name, span(d.Doc, d))
							} else {
								add(idx.exact, n.Name, span(spec.Doc, spec))
							}
						}
					}
				}
			}
		}
	}
	return idx
}

// DeclLine returns the first line of the declaration named name (as in
// Ref.Name) that f's page shows as code, or 0 if f declares no such name.
func (f *File) DeclLine(name string) int {
	s, _, ok := IndexDecls([]*File{f}).lookup(name)
	if !ok {
		return 0
	}
	return f.FirstCodeLine(LineRange{From: s.from, To: s.to})
}

// recvName is the receiver's type name without pointer or type parameters.
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return fmt.Sprint(t)
		}
	}
}

// lookup finds the first of the "|"-separated names.
func (idx *Decls) lookup(names string) (declSpan, string, bool) {
	alts := strings.Split(names, "|")
	for _, n := range alts {
		n = strings.TrimSpace(n)
		if s, ok := idx.exact[n]; ok {
			return s, n, true
		}
	}
	for _, n := range alts {
		n = strings.TrimSpace(n)
		if strings.Contains(n, ".") {
			continue
		}
		if s, ok := idx.methods[n]; ok {
			return s, n, true
		}
	}
	return declSpan{}, "", false
}

// Excerpt resolves ref against the declarations of the files of one
// build, buildName saying which in a missing name's note.
func (idx *Decls) Excerpt(ref Ref, buildName string) Excerpt {
	ex := Excerpt{Ref: ref}
	s, name, ok := idx.lookup(ref.Name)
	if !ok {
		ex.Missing = fmt.Sprintf("No declaration named %s in %s (%s).", strings.ReplaceAll(ref.Name, "|", " or "), ref.Dir, buildName)
		return ex
	}
	ex.Name, ex.File = name, s.file
	ex.Ranges = focusRanges(s, ref.Focus, &ex.Note)
	var missing []string
	for _, text := range ref.Mark {
		lines := markedLines(s.file, ex.Ranges, text)
		if len(lines) == 0 {
			missing = append(missing, fmt.Sprintf("%q", text))
		}
		ex.Marked = append(ex.Marked, lines...)
	}
	if len(missing) > 0 {
		ex.Note = strings.TrimSpace(ex.Note + " " + fmt.Sprintf("No code line of the excerpt contains %s.", strings.Join(missing, " or ")))
	}
	sort.Ints(ex.Marked)
	ex.Marked = slices.Compact(ex.Marked)
	if len(ex.Marked) > 0 && lineCount(ex.Ranges) > MaxExcerptLines {
		ex.Ranges = aroundMarks(s, ex.Ranges, ex.Marked)
	}
	// Whatever was cut, the lines that open the statements and functions
	// around a marked line stay, so that no marked line is read out of
	// its func, for, go, if, case, select or switch.
	for _, m := range ex.Marked {
		ex.Ranges = append(ex.Ranges, enclosingLines(s.file, s.node, m)...)
	}
	ex.Ranges = joinRanges(s.file.Lines, ex.Ranges)
	var unkept []string
	ex.Ranges, unkept = wholeComments(s.file, ex.Ranges, ref.Keep)
	if len(unkept) > 0 {
		ex.Note = strings.TrimSpace(ex.Note + " " + fmt.Sprintf("No comment block shown above the excerpt's code contains %s.", strings.Join(unkept, " or ")))
	}
	return ex
}

// wholeComments takes the comment blocks out of ranges, and puts back
// whole, with the blank lines up to their code, the blocks that open a
// paragraph with Ours: or contain one of the keep texts and whose code
// is shown. So an excerpt never starts or ends inside a comment, and
// never shows a comment without the code it is about. It returns the
// keep texts that no block shown contains.
func wholeComments(f *File, ranges []LineRange, keep []string) ([]LineRange, []string) {
	shown := make([]bool, len(f.Lines)+2)
	for _, r := range ranges {
		for l := r.From; l <= r.To; l++ {
			shown[l] = true
		}
	}
	kept := map[string]bool{}
	for _, c := range f.Comments {
		// The code the block is about: the next line that is neither
		// blank nor another comment.
		next := c.To + 1
		for next <= len(f.Lines) && (strings.TrimSpace(f.Lines[next-1]) == "" || f.isComment(next)) {
			next++
		}
		text := strings.Join(f.Lines[c.From-1:c.To], "\n")
		want := strings.Contains(text, "// Ours:")
		for _, k := range keep {
			if strings.Contains(text, k) {
				want = true
				if next <= len(f.Lines) && shown[next] {
					kept[k] = true
				}
			}
		}
		show := want && next <= len(f.Lines) && shown[next]
		for l := c.From; l <= c.To; l++ {
			shown[l] = show
		}
		if show {
			for l := c.To + 1; l < next; l++ {
				shown[l] = true
			}
		}
	}
	var out []LineRange
	for l := 1; l <= len(f.Lines); l++ {
		if !shown[l] {
			continue
		}
		if n := len(out); n > 0 && out[n-1].To == l-1 {
			out[n-1].To = l
		} else {
			out = append(out, LineRange{From: l, To: l})
		}
	}
	var unkept []string
	for _, k := range keep {
		if !kept[k] {
			unkept = append(unkept, fmt.Sprintf("%q", k))
		}
	}
	return trimRanges(f.Lines, out), unkept
}

// enclosingLines returns, for line m inside the declaration n of f, the
// lines that open each function and statement around m, found with
// go/ast: a func's or func literal's signature, the header of an if, for,
// range, switch or select up to its "{", a case up to its ":", the
// "} else {" before an else branch, and the first line of any other
// statement that m continues (a call over several lines, a go or defer).
func enclosingLines(f *File, n ast.Node, m int) []LineRange {
	line := func(p token.Pos) int { return f.fset.Position(p).Line }
	var out []LineRange
	add := func(from, to token.Pos) {
		out = append(out, LineRange{From: line(from), To: line(to)})
	}
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil || line(x.Pos()) > m || line(x.End()) < m {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncDecl:
			if x.Body != nil {
				add(x.Pos(), x.Body.Lbrace)
			}
		case *ast.FuncLit:
			add(x.Pos(), x.Body.Lbrace)
		case *ast.IfStmt:
			add(x.Pos(), x.Body.Lbrace)
			if x.Else != nil && line(x.Else.Pos()) <= m {
				add(x.Else.Pos(), x.Else.Pos())
			}
		case *ast.ForStmt:
			add(x.Pos(), x.Body.Lbrace)
		case *ast.RangeStmt:
			add(x.Pos(), x.Body.Lbrace)
		case *ast.SwitchStmt:
			add(x.Pos(), x.Body.Lbrace)
		case *ast.TypeSwitchStmt:
			add(x.Pos(), x.Body.Lbrace)
		case *ast.SelectStmt:
			add(x.Pos(), x.Body.Lbrace)
		case *ast.CaseClause:
			add(x.Pos(), x.Colon)
		case *ast.CommClause:
			add(x.Pos(), x.Colon)
		case *ast.BlockStmt:
		case ast.Stmt:
			add(x.Pos(), x.Pos())
		}
		return true
	})
	return out
}

// joinRanges sorts ranges and joins those that overlap or are at most a
// line apart, since a gap mark in place of one line saves nothing.
func joinRanges(lines []string, ranges []LineRange) []LineRange {
	sort.Slice(ranges, func(i, j int) bool { return ranges[i].From < ranges[j].From })
	var out []LineRange
	for _, r := range ranges {
		if n := len(out); n > 0 && r.From <= out[n-1].To+2 {
			out[n-1].To = max(out[n-1].To, r.To)
			continue
		}
		out = append(out, r)
	}
	return trimRanges(lines, out)
}

// focusRanges is the whole declaration, or with focus its signature and
// the step containing focus. A focus not found is said in *note.
func focusRanges(s declSpan, focus string, note *string) []LineRange {
	whole := LineRange{From: s.from, To: s.to}
	if focus == "" {
		return []LineRange{whole}
	}
	step, found := focusStep(s, focus)
	if !found {
		*note = fmt.Sprintf("The step containing %q was not found; the whole declaration is shown.", focus)
		return []LineRange{whole}
	}
	if s.sig.From != 0 && s.sig.To < step.From-1 {
		return []LineRange{s.sig, step}
	} else if s.sig.From != 0 && s.sig.From < step.From {
		return []LineRange{{From: s.sig.From, To: step.To}}
	}
	return []LineRange{step}
}

// MaxExcerptLines is the length above which a marked excerpt is cut down
// to its marked lines: about what fits beside the other design's excerpt
// without scrolling past it.
const MaxExcerptLines = 18

// markedLines returns the code lines in ranges that contain text. Whole-line
// comments do not count: the file's page shows them as prose, with no line
// to link to.
func markedLines(f *File, ranges []LineRange, text string) []int {
	var out []int
	for _, r := range ranges {
		for l := r.From; l <= r.To; l++ {
			if strings.Contains(f.Lines[l-1], text) && f.FirstCodeLine(LineRange{From: l, To: l}) == l {
				out = append(out, l)
			}
		}
	}
	return out
}

func lineCount(rs []LineRange) int {
	n := 0
	for _, r := range rs {
		n += r.To - r.From + 1
	}
	return n
}

// aroundMarks cuts ranges down to the declaration's signature and, for
// each marked line, up to two lines after it, short of a comment, which
// opens the next step. Overlapping or adjacent pieces are joined.
func aroundMarks(s declSpan, ranges []LineRange, marks []int) []LineRange {
	f := s.file
	inside := func(l int) bool {
		for _, r := range ranges {
			if l >= r.From && l <= r.To {
				return true
			}
		}
		return false
	}
	var pieces []LineRange
	if s.sig.From != 0 {
		pieces = append(pieces, s.sig)
	}
	for _, m := range marks {
		from := m
		to := m
		for to+1 <= s.to && inside(to+1) && to-m < 2 && !f.isComment(to+1) {
			to++
		}
		pieces = append(pieces, LineRange{From: from, To: to})
	}
	sort.Slice(pieces, func(i, j int) bool { return pieces[i].From < pieces[j].From })
	var out []LineRange
	for _, p := range pieces {
		var kept []LineRange
		for _, r := range ranges {
			from, to := max(p.From, r.From), min(p.To, r.To)
			if from <= to {
				kept = append(kept, LineRange{From: from, To: to})
			}
		}
		for _, k := range kept {
			if n := len(out); n > 0 && k.From <= out[n-1].To+2 {
				out[n-1].To = max(out[n-1].To, k.To)
				continue
			}
			out = append(out, k)
		}
	}
	return trimRanges(f.Lines, out)
}

// focusStep finds the section of s's file, inside s, whose code contains
// text, and returns its lines (prose included) clipped to s.
func focusStep(s declSpan, text string) (LineRange, bool) {
	f := s.file
	for _, sec := range f.Sections {
		for _, r := range sec.Code {
			from, to := max(r.From, s.from), min(r.To, s.to)
			if from > to {
				continue
			}
			if !strings.Contains(strings.Join(f.Lines[from-1:to], "\n"), text) {
				continue
			}
			step := LineRange{From: sec.Code[0].From, To: sec.Code[len(sec.Code)-1].To}
			if sec.ProseFrom > 0 {
				step.From = sec.ProseFrom
			}
			step.From, step.To = max(step.From, s.from), min(step.To, s.to)
			return step, true
		}
	}
	return LineRange{}, false
}
