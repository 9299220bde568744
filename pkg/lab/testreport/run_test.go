package testreport

import (
	"bytes"
	"context"
	"debug/elf"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestGoTestsFlagsAreSortedForTheBinaries(t *testing.T) {
	o, err := SplitFlags([]string{"-count=1", "-timeout=45m", "-p=3", "-parallel=8", "-tags=modern", "-skip=^TestUpstream",
		"-race", "-run", "TestX", "./pkg/a", "./..."})
	if err != nil {
		t.Fatal(err)
	}
	want := RunOptions{
		P:        3,
		Build:    []string{"-tags=modern", "-race"},
		Test:     []string{"-test.count=1", "-test.timeout=45m", "-test.parallel=8", "-test.skip=^TestUpstream", "-test.run=TestX"},
		Packages: []string{"./pkg/a", "./..."},
	}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("SplitFlags = %+v, want %+v", o, want)
	}
	for _, bad := range [][]string{{"-cover"}, {"-json"}, {"-run"}, {"-p=0"}} {
		if _, err := SplitFlags(bad); err == nil {
			t.Errorf("SplitFlags(%q) took it", bad)
		}
	}
}

// Two packages whose import paths end alike are built by different go
// commands: go test -c names a binary after that last element.
func TestPackagesNamedAlikeAreBuiltApart(t *testing.T) {
	var pkgs []*testPackage
	for _, p := range []string{"m/a/x", "m/b/x", "m/y", "m/c/x"} {
		pkgs = append(pkgs, &testPackage{ImportPath: p})
	}
	var got [][]string
	for _, g := range batches(pkgs) {
		var names []string
		for _, p := range g {
			names = append(names, p.ImportPath)
		}
		got = append(got, names)
	}
	want := [][]string{{"m/a/x", "m/y"}, {"m/b/x"}, {"m/c/x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("batches = %v, want %v", got, want)
	}
}

// scratchModule writes a module of files (path → content) and returns its
// folder.
func scratchModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files["go.mod"] = "module scratch\n\ngo 1.22\n"
	for name, content := range files {
		writeFile(t, filepath.Join(root, name), content)
	}
	return root
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runEvents runs the tests of root's packages and returns, for each
// package, its last package-level action ("pass", "fail") and its output.
func runEvents(t *testing.T, root, bin string) (map[string]string, map[string]string, error) {
	t.Helper()
	var out bytes.Buffer
	err := Run(context.Background(), RunOptions{Go: "go", Dir: root, Bin: bin, Test: []string{"-test.count=1"},
		Packages: []string{"./..."}, P: 2, Out: &out})
	actions, output := map[string]string{}, map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e struct{ Action, Package, Test, Output string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("not go test -json: %q: %v", line, err)
		}
		output[e.Package] += e.Output
		if e.Test == "" && (e.Action == "pass" || e.Action == "fail") {
			actions[e.Package] = e.Action
		}
	}
	return actions, output, err
}

// The runner reports as go test does: a failing test and a package that
// does not build fail, the rest pass; and a binary kept from a run before
// is never run once its package changed, whether it then builds or not.
func TestTheRunnerRunsWhatTheSourcesSayNotWhatItKept(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	pass := "package %s\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n"
	root := scratchModule(t, map[string]string{
		"a/a.go":        "package a\n\nfunc A() int { return 1 }\n",
		"a/a_test.go":   "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {\n\tif A() != 1 {\n\t\tt.Fatal(\"A changed\")\n\t}\n}\n",
		"b/b_test.go":   "package b\n\nimport \"testing\"\n\nfunc TestB(t *testing.T) { t.Fatal(\"planted\") }\n",
		"c/c_test.go":   "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) { undefined() }\n",
		"d/x/x_test.go": strings.ReplaceAll(pass, "%s", "x"),
		"e/x/x_test.go": strings.ReplaceAll(pass, "%s", "x"),
		"f/f.go":        "package f\n",
	})
	bin := filepath.Join(t.TempDir(), "bin")
	actions, output, err := runEvents(t, root, bin)
	want := map[string]string{"scratch/a": "pass", "scratch/b": "fail", "scratch/c": "fail", "scratch/d/x": "pass", "scratch/e/x": "pass"}
	if !reflect.DeepEqual(actions, want) {
		t.Errorf("first run: %v, want %v", actions, want)
	}
	if err == nil || !strings.Contains(err.Error(), "scratch/b") || !strings.Contains(err.Error(), "scratch/c") {
		t.Errorf("first run's error %v names not b and c", err)
	}
	if !strings.Contains(output["scratch/c"], "undefined") || !strings.Contains(output["scratch/c"], "[build failed]") {
		t.Errorf("c's output does not give the build's failure: %q", output["scratch/c"])
	}
	if !strings.Contains(output["scratch/b"], "planted") {
		t.Errorf("b's output does not give its test's failure: %q", output["scratch/b"])
	}

	// Mend b and c; change a so that its kept binary would pass where the
	// sources fail; break d/x's build.
	writeFile(t, filepath.Join(root, "b/b_test.go"), strings.ReplaceAll(pass, "%s", "b"))
	writeFile(t, filepath.Join(root, "c/c_test.go"), strings.ReplaceAll(pass, "%s", "c"))
	writeFile(t, filepath.Join(root, "a/a.go"), "package a\n\nfunc A() int { return 2 }\n")
	writeFile(t, filepath.Join(root, "d/x/x_test.go"), "package x\n\nfunc broken( {\n")
	actions, _, err = runEvents(t, root, bin)
	want = map[string]string{"scratch/a": "fail", "scratch/b": "pass", "scratch/c": "pass", "scratch/d/x": "fail", "scratch/e/x": "pass"}
	if !reflect.DeepEqual(actions, want) {
		t.Errorf("second run: %v, want %v", actions, want)
	}
	if err == nil {
		t.Error("second run: no error where a and d/x failed")
	}
}

// Build links what Run would and runs nothing; the Run after it links
// nothing again and reports as it would have alone. Build's error names
// a package that did not build.
func TestBuildLinksAndTheRunAfterItLinksNothingAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	pass := "package %s\n\nimport \"testing\"\n\nfunc TestOK(t *testing.T) {}\n"
	root := scratchModule(t, map[string]string{
		"a/a_test.go": strings.ReplaceAll(pass, "%s", "a"),
		"b/b_test.go": strings.ReplaceAll(pass, "%s", "b"),
	})
	bin := filepath.Join(t.TempDir(), "bin")
	build := func() error {
		var out bytes.Buffer
		err := Build(context.Background(), RunOptions{Go: "go", Dir: root, Bin: bin, Packages: []string{"./..."}, P: 2, Out: &out})
		if out.Len() > 0 {
			t.Errorf("Build wrote events, where it runs nothing: %q", out.String())
		}
		return err
	}
	if err := build(); err != nil {
		t.Fatal(err)
	}
	linked := map[string]os.FileInfo{}
	for _, name := range []string{"a", "b"} {
		binaries, _ := filepath.Glob(filepath.Join(bin, "*", name+".test"))
		if len(binaries) != 1 {
			t.Fatalf("Build left %d binaries of %s, want 1", len(binaries), name)
		}
		fi, err := os.Stat(binaries[0])
		if err != nil {
			t.Fatal(err)
		}
		linked[binaries[0]] = fi
	}
	actions, _, err := runEvents(t, root, bin)
	if want := map[string]string{"scratch/a": "pass", "scratch/b": "pass"}; err != nil || !reflect.DeepEqual(actions, want) {
		t.Errorf("the run after Build: %v (%v), want %v", actions, err, want)
	}
	for path, before := range linked {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// go touches a binary that is up to date (its time moves);
		// a binary linked again is written anew and renamed into place.
		if !os.SameFile(fi, before) {
			t.Errorf("the run after Build linked %s again", path)
		}
	}

	writeFile(t, filepath.Join(root, "c/c_test.go"), "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) { undefined() }\n")
	if err := build(); err == nil || !strings.Contains(err.Error(), "scratch/c") || strings.Contains(err.Error(), "scratch/a") {
		t.Errorf("Build's error %v names not c alone", err)
	}
}

// TestTheTestBinariesAreLinkedWithoutDWARF: linkFlags reach the linker,
// and a binary so linked still names its functions when it panics.
func TestTheTestBinariesAreLinkedWithoutDWARF(t *testing.T) {
	root := scratchModule(t, map[string]string{
		"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestPanics(t *testing.T) { panicHere() }\n\nfunc panicHere() { panic(\"planted\") }\n",
	})
	bin := t.TempDir()
	_, output, err := runEvents(t, root, bin)
	if err == nil || !strings.Contains(output["scratch/p"], "scratch/p.panicHere") || !strings.Contains(output["scratch/p"], "p_test.go:7") {
		t.Errorf("the planted panic: %v, output %q; want a failure whose trace names panicHere and its line", err, output["scratch/p"])
	}
	binaries, _ := filepath.Glob(filepath.Join(bin, "*", "p.test"))
	if len(binaries) != 1 {
		t.Fatalf("binaries %v, want one p.test", binaries)
	}
	f, err := elf.Open(binaries[0])
	if err != nil {
		t.Skipf("not an ELF binary here: %v", err)
	}
	defer f.Close()
	if f.Section(".debug_info") != nil {
		t.Errorf("%s carries DWARF (.debug_info): linked without %s", binaries[0], linkFlags)
	}
}
