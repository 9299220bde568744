package lab

import (
	"bufio"
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// What a clone carries must be source: a build output committed once
// (a 40 MB controller-manager at the top level) rides along in every
// clone. treeProblems lists, for the repository at root:
//   - every tracked file that is executable (mode 755, or an ELF, Mach-O or
//     PE header) or larger than 1 MB, unless .ci/tree-allowed names it;
//   - every place where go build or go test -c, run without -o, would
//     leave a binary that .gitignore does not ignore: for each main package
//     its binary at the top level (go build ./cmd/x) and in its folder (go
//     build there), for each tested package its test binary in both, in
//     this module or a nested one.
func treeProblems(t *testing.T, root string) []string {
	t.Helper()
	git := func(stdin string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.Output()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	allowed := map[string]bool{}
	if data, err := os.ReadFile(filepath.Join(root, ".ci", "tree-allowed")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				allowed[line] = true
			}
		}
	}

	var problems []string
	mains, tested := map[string]bool{}, map[string]bool{}
	// Each entry: "<mode> <object> <stage>\t<path>".
	for _, entry := range strings.Split(git("", "ls-files", "-s", "-z"), "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		file := filepath.Join(root, name)
		info, err := os.Stat(file)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		switch {
		case strings.HasSuffix(name, "_test.go"):
			tested[path.Dir(name)] = true
		case strings.HasSuffix(name, ".go"):
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly)
			if err == nil && f.Name.Name == "main" {
				mains[path.Dir(name)] = true
			}
		}
		if allowed[name] {
			continue
		}
		why := ""
		if strings.HasPrefix(meta, "100755 ") {
			why = "is committed executable (mode 755)"
		} else if kind := executableKind(file); kind != "" {
			why = "is " + kind + " executable"
		} else if info.Size() > 1<<20 {
			why = fmt.Sprintf("is %d KB, over 1 MB", info.Size()>>10)
		}
		if why != "" {
			problems = append(problems, fmt.Sprintf("tracked file %s %s: a build output? Remove it, or name it in .ci/tree-allowed with the reason", name, why))
		}
	}

	var candidates []string
	for dir := range mains {
		candidates = append(candidates, path.Base(dir), path.Join(dir, path.Base(dir)))
	}
	for dir := range tested {
		candidates = append(candidates, path.Base(dir)+".test", path.Join(dir, path.Base(dir)+".test"))
	}
	// -v -n prints every path, "::" before those no rule ignores.
	out := git(strings.Join(candidates, "\n")+"\n", "check-ignore", "--no-index", "--stdin", "-v", "-n")
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		if rule, name, _ := strings.Cut(sc.Text(), "\t"); rule == "::" {
			problems = append(problems, fmt.Sprintf("a build could leave %s in the tree, and .gitignore does not ignore it", name))
		}
	}
	return problems
}

// executableKind names the executable format file starts with, or "".
func executableKind(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 4)
	n, _ := f.Read(head)
	head = head[:n]
	switch {
	case bytes.Equal(head, []byte("\x7fELF")):
		return "an ELF"
	case bytes.Equal(head, []byte{0xcf, 0xfa, 0xed, 0xfe}), bytes.Equal(head, []byte{0xce, 0xfa, 0xed, 0xfe}),
		bytes.Equal(head, []byte{0xca, 0xfe, 0xba, 0xbe}):
		return "a Mach-O"
	case bytes.HasPrefix(head, []byte("MZ")) && n == 4 && (head[2] < 0x20 || head[2] >= 0x7f):
		return "a PE (Windows)"
	}
	return ""
}

// repoRoot returns the top of this repository's work tree.
func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git work tree: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestTheTreeTracksNoBuildOutput checks this tree, as make test does in
// CI: no tracked executable or file over 1 MB but those .ci/tree-allowed
// names, and no binary a build could leave that .gitignore lets through.
func TestTheTreeTracksNoBuildOutput(t *testing.T) {
	for _, p := range treeProblems(t, repoRoot(t)) {
		t.Error(p)
	}
}

// TestTheTreeCheckCatchesEveryKindOfBuildOutput plants, in a scratch
// repository with this tree's .gitignore and list, each thing the check
// must refuse, and things it must let through.
func TestTheTreeCheckCatchesEveryKindOfBuildOutput(t *testing.T) {
	root := repoRoot(t)
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) {
		t.Helper()
		file := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".gitignore", ".ci/tree-allowed"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		write(name, data, 0o644)
	}
	write("cmd/kubecfg/main.go", []byte("package main\n\nfunc main() {}\n"), 0o644)
	write("cmd/newtool/main.go", []byte("// A new command.\npackage main\n\nfunc main() {}\n"), 0o644)
	write("pkg/x/x_test.go", []byte("package x\n"), 0o644)
	write("pkg/elf", []byte("\x7fELF\x02\x01\x01"), 0o644)
	write("pkg/run.sh", []byte("#!/bin/sh\n"), 0o755)
	write("examples/big.json", make([]byte, 1<<20+1), 0o644)
	write("examples/fits.json", make([]byte, 1<<20), 0o644)
	write("examples/MZ.txt", []byte("MZ is a postcode\n"), 0o644)
	write(".ci/run", []byte("#!/bin/sh\n"), 0o755)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}

	got := strings.Join(treeProblems(t, dir), "\n")
	for _, want := range []string{
		"pkg/elf is an ELF executable",
		"pkg/run.sh is committed executable",
		"examples/big.json is 1024 KB, over 1 MB",
		"leave newtool in the tree",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the check does not say %q; it says:\n%s", want, got)
		}
	}
	// cmd/newtool/newtool is ignored by .gitignore's rule for every folder
	// of cmd.
	for _, passed := range []string{"fits.json", "MZ.txt", ".ci/run", "kubecfg", "x.test", "cmd/newtool/newtool"} {
		if strings.Contains(got, passed) {
			t.Errorf("the check refuses %s, which it must let through:\n%s", passed, got)
		}
	}
}
