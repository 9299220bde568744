package history

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TestEveryEntryIsComplete checks that every change says what the
// catalogue promises: a name, references, a date and its source, what
// changed, and a scenario with its figure or a reason there is none.
func TestEveryEntryIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Changes {
		if c.Name == "" || seen[c.Name] {
			t.Errorf("change %q: empty or duplicate name", c.Name)
		}
		seen[c.Name] = true
		if len(c.PRs) == 0 || c.Date == "" || c.DateSource == "" || c.What == "" || c.Title == "" || len(c.Code) == 0 {
			t.Errorf("%s: missing PRs, date, date source, title, what or code", c.Name)
		}
		for _, ref := range c.Refs() {
			if !refPattern.MatchString(ref) {
				t.Errorf("%s: reference %q is not #<number>", c.Name, ref)
			}
		}
		if c.Scenario == "" && c.Unshown == "" {
			t.Errorf("%s: neither a scenario nor a reason why none shows it", c.Name)
		}
		if c.Scenario != "" {
			if _, err := scenario.Get(c.Scenario); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
			if c.Figure == "" || c.With == "" || c.Without == "" {
				t.Errorf("%s: a scenario without a figure or the outcomes with and without", c.Name)
			}
		}
		if (c.Switch == "") == (c.NoSwitch == "") {
			t.Errorf("%s: needs exactly one of Switch and NoSwitch", c.Name)
		}
	}
	if len(Changes) < 12 {
		t.Errorf("%d changes, want at least 12", len(Changes))
	}
}

// TestCodePlacesExist parses the files each change points at and finds
// the declarations it names, so the catalogue cannot point at code that
// moved.
func TestCodePlacesExist(t *testing.T) {
	for _, c := range Changes {
		for _, p := range c.Code {
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", p.File), nil, 0)
			if err != nil {
				t.Errorf("%s: %v", c.Name, err)
				continue
			}
			if !declares(f, p.Decl) {
				t.Errorf("%s: %s declares no %s", c.Name, p.File, p.Decl)
			}
		}
	}
}

var refPattern = regexp.MustCompile(`^#[1-9][0-9]*$`)

func declares(f *ast.File, decl string) bool {
	recv, name, method := strings.Cut(decl, ".")
	if !method {
		name, recv = recv, ""
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != name {
				continue
			}
			if recv == "" && d.Recv == nil {
				return true
			}
			if recv != "" && d.Recv != nil {
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.Name == recv {
					return true
				}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == name && recv == "" {
						return true
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == name && recv == "" {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// TestParseWithout checks that -without takes catalogue names and refuses
// others with the list of valid ones.
func TestParseWithout(t *testing.T) {
	off, err := ParseWithout("expectations, slow-start")
	if err != nil || !off["expectations"] || !off["slow-start"] || len(off) != 2 {
		t.Fatalf("ParseWithout = %v, %v", off, err)
	}
	if got := FormatWithout(off); got != "expectations,slow-start" {
		t.Errorf("FormatWithout = %q", got)
	}
	for _, bad := range []string{"expectation", "endpoints-informer"} {
		_, err := ParseWithout(bad)
		if err == nil || !strings.Contains(err.Error(), "slow-start") || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseWithout(%q) = %v, want an error naming it and the valid names", bad, err)
		}
	}
}
