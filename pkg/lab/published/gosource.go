package published

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// GoValue reads the value of the constant or variable name, declared at
// the top of the package in dir (relative to root), from its source:
// the allow-list of prose's constants names what it mirrors this way,
// so that a constant left unexported stays so. A variable set from a
// flag (flag.Duration("sync_period", 10*time.Second, …)) reads as the
// flag's default. It evaluates numbers, durations of package time, the
// four operators, conversions and other constants of the package; a
// composite literal of numbers reads as its elements. Durations are in
// nanoseconds.
func GoValue(root, dir, name string) ([]float64, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(filepath.Join(root, dir))
	if err != nil {
		return nil, err
	}
	decls := map[string]ast.Expr{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(root, dir, e.Name()), nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST && g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						decls[n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	expr, ok := decls[name]
	if !ok {
		return nil, fmt.Errorf("%s declares no %s at its top", dir, name)
	}
	ev := &evaluator{decls: decls, where: dir + "." + name}
	return ev.list(expr)
}

type evaluator struct {
	decls map[string]ast.Expr
	where string
	depth int
}

func (ev *evaluator) list(e ast.Expr) ([]float64, error) {
	if c, ok := e.(*ast.CompositeLit); ok {
		var out []float64
		for _, el := range c.Elts {
			v, err := ev.value(el)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	v, err := ev.value(e)
	return []float64{v}, err
}

var timeUnits = map[string]float64{
	"Nanosecond": 1, "Microsecond": 1e3, "Millisecond": 1e6, "Second": 1e9, "Minute": 60e9, "Hour": 3600e9,
}

func (ev *evaluator) value(e ast.Expr) (float64, error) {
	ev.depth++
	defer func() { ev.depth-- }()
	if ev.depth > 20 {
		return 0, fmt.Errorf("%s: too deep", ev.where)
	}
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.FLOAT {
			return strconv.ParseFloat(strings.ReplaceAll(e.Value, "_", ""), 64)
		}
	case *ast.ParenExpr:
		return ev.value(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.SUB {
			v, err := ev.value(e.X)
			return -v, err
		}
	case *ast.BinaryExpr:
		x, err := ev.value(e.X)
		if err != nil {
			return 0, err
		}
		y, err := ev.value(e.Y)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case token.MUL:
			return x * y, nil
		case token.QUO:
			return x / y, nil
		case token.ADD:
			return x + y, nil
		case token.SUB:
			return x - y, nil
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "time" {
			if u, ok := timeUnits[e.Sel.Name]; ok {
				return u, nil
			}
		}
	case *ast.Ident:
		if d, ok := ev.decls[e.Name]; ok {
			return ev.value(d)
		}
	case *ast.CallExpr:
		// A flag's default, or a conversion.
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "flag" && len(e.Args) >= 2 {
				return ev.value(e.Args[1])
			}
		}
		if len(e.Args) == 1 {
			return ev.value(e.Args[0])
		}
	}
	return 0, fmt.Errorf("%s: cannot evaluate %T", ev.where, e)
}

// A Mirror names a Go declaration that prose writes a figure of, and how
// prose writes it: Form holds {} for the value, {s}, {ms} or {min} for
// a duration in those units; a declaration of several numbers gives a
// Constant for each.
type Mirror struct {
	// Dir is the package's folder, relative to the repository; Name the
	// declaration.
	Dir, Name string
	Form      string
}

// Constants evaluates mirrors against the source at root.
func Constants(root string, mirrors []Mirror) ([]Constant, error) {
	var out []Constant
	for _, m := range mirrors {
		vals, err := GoValue(root, m.Dir, m.Name)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			text := m.Form
			for placeholder, div := range map[string]float64{"{}": 1, "{s}": 1e9, "{ms}": 1e6, "{min}": 60e9} {
				text = strings.ReplaceAll(text, placeholder, Group(strconv.FormatFloat(v/div, 'f', -1, 64)))
			}
			out = append(out, Constant{Go: m.Dir + "." + m.Name, Text: text})
		}
	}
	return out, nil
}
