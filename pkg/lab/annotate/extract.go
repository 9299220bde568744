package annotate

// Excerpts for the side-by-side pages, found by declaration name with
// go/ast so they follow the code as it changes.

import (
	"fmt"
	"go/ast"
	"go/token"
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
}

// Excerpt is what a Ref found: lines of one file, or a note saying why
// there are none.
type Excerpt struct {
	Ref    Ref
	Name   string
	File   *File
	Ranges []LineRange
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

// declIndex maps names (as in Ref.Name) to declarations.
type declIndex struct {
	exact   map[string]declSpan
	methods map[string]declSpan
}

// indexDecls indexes the top-level declarations of files, in order.
func indexDecls(files []*File) *declIndex {
	idx := &declIndex{exact: map[string]declSpan{}, methods: map[string]declSpan{}}
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
func (idx *declIndex) lookup(names string) (declSpan, string, bool) {
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

// excerpt resolves ref against an index of the files of its build.
func excerpt(ref Ref, idx *declIndex, buildName string) Excerpt {
	ex := Excerpt{Ref: ref}
	s, name, ok := idx.lookup(ref.Name)
	if !ok {
		ex.Missing = fmt.Sprintf("No declaration named %s in %s (%s).", strings.ReplaceAll(ref.Name, "|", " or "), ref.Dir, buildName)
		return ex
	}
	ex.Name, ex.File = name, s.file
	whole := LineRange{From: s.from, To: s.to}
	if ref.Focus == "" {
		ex.Ranges = []LineRange{whole}
		return ex
	}
	step, found := focusStep(s, ref.Focus)
	if !found {
		ex.Ranges = []LineRange{whole}
		ex.Note = fmt.Sprintf("The step containing %q was not found; the whole declaration is shown.", ref.Focus)
		return ex
	}
	if s.sig.From != 0 && s.sig.To < step.From-1 {
		ex.Ranges = []LineRange{s.sig, step}
	} else if s.sig.From != 0 && s.sig.From < step.From {
		ex.Ranges = []LineRange{{From: s.sig.From, To: step.To}}
	} else {
		ex.Ranges = []LineRange{step}
	}
	return ex
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
