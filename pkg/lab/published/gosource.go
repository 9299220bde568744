package published

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
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
// four operators, left shifts (3 << 20), conversions and other constants
// of the package; a composite literal of numbers reads as its elements.
// Durations are in nanoseconds.
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
		case token.SHL:
			if y < 0 || y > 62 || y != math.Trunc(y) {
				return 0, fmt.Errorf("%s: cannot shift by %v", ev.where, y)
			}
			return x * math.Pow(2, y), nil
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
// a duration in those units, {KiB}, {MiB} or {MB} for bytes in those
// units, {%} for a fraction as a percentage (0.9 as 90); a declaration
// of several numbers gives a Constant for each.
type Mirror struct {
	// Dir is the package's folder, relative to the repository; Name the
	// declaration.
	Dir, Name string
	Form      string
}

// placeholders are the units of a Mirror's Form, each with what the
// value is divided by.
var placeholders = map[string]float64{
	"{}": 1, "{s}": 1e9, "{ms}": 1e6, "{min}": 60e9,
	"{KiB}": 1 << 10, "{MiB}": 1 << 20, "{MB}": 1e6,
	"{%}": 0.01,
}

// inUnit writes v/div as prose does, rounded to 12 significant digits so
// that a unit's division leaves no binary residue ({%} of 0.07 writes 7,
// not 7.000000000000001).
func inUnit(v, div float64) string {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v/div, 'g', 12, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
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
			for placeholder, div := range placeholders {
				text = strings.ReplaceAll(text, placeholder, Group(inUnit(v, div)))
			}
			out = append(out, Constant{Go: m.Dir + "." + m.Name, Text: text})
		}
	}
	return out, nil
}
