package lab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// clusterTests are the packages whose tests start clusters of real
// processes and then mostly wait for them.
var clusterTests = []string{"e2e", "faulttest"}

// TestEveryClusterTestRunsInParallel keeps make test fast: a test that
// starts a cluster spends most of its time waiting for it to converge, so
// each must call t.Parallel first and let make test run it beside the
// others (a test that drives a cluster hard takes e2e's heavy slot after
// that).
func TestEveryClusterTestRunsInParallel(t *testing.T) {
	for _, dir := range clusterTests {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no tests in %s: %v", dir, err)
		}
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
					continue
				}
				if !startsWithParallel(fn) {
					t.Errorf("%s: %s does not call t.Parallel() first", file, fn.Name.Name)
				}
			}
		}
	}
}

func startsWithParallel(fn *ast.FuncDecl) bool {
	if fn.Body == nil || len(fn.Body.List) == 0 {
		return false
	}
	stmt, ok := fn.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := stmt.X.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Parallel"
}
