package published

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoRoot is the repository's top, three folders up from this package.
const repoRoot = "../../.."

func TestEveryPageHasACommitAndInputsThatExist(t *testing.T) {
	stamps, err := ReadStamps(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Pages {
		if missing := MissingInputs(repoRoot, p); len(missing) > 0 {
			t.Errorf("page %s declares inputs that name nothing in the tree: %s", p.Name, strings.Join(missing, ", "))
		}
		if len(p.Inputs) == 0 {
			t.Errorf("page %s declares no inputs", p.Name)
		}
		if _, err := os.Stat(filepath.Join(repoRoot, p.Link)); err != nil {
			t.Errorf("page %s links %s: %v", p.Name, p.Link, err)
		}
		st, ok := stamps.Of(p.Name)
		if !ok || st.Commit == "" {
			t.Errorf("page %s has no commit: neither %s nor the declared earlier stamps give one", p.Name, StampsFile)
			continue
		}
		if shallow(t) {
			continue
		}
		if _, err := Git(repoRoot, "cat-file", "-e", strings.TrimSuffix(st.Commit, "-dirty")+"^{commit}"); err != nil {
			t.Errorf("page %s's commit %s is not in the repository's history: %v", p.Name, st.Commit, err)
		}
	}
}

// TestTheMissingInputOfAPageIsNamed plants an input that is not there.
func TestTheMissingInputOfAPageIsNamed(t *testing.T) {
	p := Page{Name: "x", Inputs: []string{"pkg/controller", "pkg/no-such-package", "pkg/lab/bench/*.nothing"}}
	got := MissingInputs(repoRoot, p)
	if strings.Join(got, ",") != "pkg/no-such-package,pkg/lab/bench/*.nothing" {
		t.Errorf("missing inputs %q, want the package and the glob that name nothing", got)
	}
}

func TestTheReadmeSaysWhatChangedSinceEachPage(t *testing.T) {
	if shallow(t) {
		t.Skip("a shallow clone does not hold the pages' commits")
	}
	readme, err := os.ReadFile(filepath.Join(repoRoot, ReadmeFile))
	if err != nil {
		t.Fatal(err)
	}
	block, ok := ReadmeBlock(string(readme))
	if !ok {
		t.Fatalf("%s has no lines about the published pages between %q and %q", ReadmeFile, ReadmeBegin, ReadmeEnd)
	}
	// The lines are true of the commit they name; a later commit leaves
	// them so, and make docs says the same of the tree it is built from.
	asOf, ok := ReadmeAsOf(block)
	if !ok {
		t.Fatalf("%s's lines about the published pages name no commit they were written as of", ReadmeFile)
	}
	if _, err := Git(repoRoot, "merge-base", "--is-ancestor", asOf, "HEAD"); err != nil {
		t.Fatalf("%s's lines were written as of %s, which is not in HEAD's history: %v", ReadmeFile, asOf, err)
	}
	statuses, err := StatusesAt(repoRoot, asOf)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range statuses {
		if s.Err != nil {
			t.Errorf("page %s: %v", s.Page.Name, s.Err)
		}
	}
	if want := ReadmeLines(asOf, statuses); block != want {
		t.Errorf("%s's lines about the published pages are not what the pages and git say as of %s: run _output/bin/rcbench publish -readme (make build first).\nhave:\n%s\nwant:\n%s", ReadmeFile, asOf, block, want)
	}
}

// shallow reports whether the repository is a shallow clone, or not a
// git repository at all.
func shallow(t *testing.T) bool {
	out, err := Git(repoRoot, "rev-parse", "--is-shallow-repository")
	if err != nil {
		t.Logf("git: %v", err)
		return true
	}
	return out == "true"
}

// TestNoPublishedFileNamesTheMachineThatWroteIt scans every text file
// under examples/: pages, recordings, charts, JSON, walkthroughs.
func TestNoPublishedFileNamesTheMachineThatWroteIt(t *testing.T) {
	checkout, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(filepath.Join(repoRoot, "examples"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".md", ".html", ".svg", ".json", ".txt":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if hits := MachinePaths(string(data), checkout); len(hits) > 0 {
			rel, _ := filepath.Rel(repoRoot, path)
			t.Errorf("%s names the machine that wrote it: %q", rel, hits)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMachinePathsAreFound plants each kind of path and label.
func TestMachinePathsAreFound(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"- 0d8543f (`/work/main/_output/bin/apiserver`): 1.50", 1},
		{`"binary":"/tmp/before/bin/apiserver"`, 1},
		{"cd /home/someone/kube-rewind && make", 1},
		{"| a35a45a (start of this session) |", 1},
		{"built in /srv/checkout/x", 1},
		{"see https://github.com/x/tmp/y and _output/bin/apiserver and ../old/bin", 0},
	} {
		if got := MachinePaths(tc.text, "/srv/checkout"); len(got) != tc.want {
			t.Errorf("%q: found %q, want %d", tc.text, got, tc.want)
		}
	}
}

// A page is older than its code when a file it depends on changed since
// its commit; a test changes none of its figures and leaves it current,
// as does a file read off the pages (talk mode's lengths).
func TestAChangeToTestsAloneLeavesAPageCurrent(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := Git(root, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) string {
		git("add", "-A")
		git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", msg)
		return git("rev-parse", "--short", "HEAD")
	}
	git("init", "-q")
	write("pkg/x/x.go", "package x\n")
	write("pkg/x/x_test.go", "package x\n")
	st := Stamp{Page: "p", Commit: commit("first"), Inputs: []string{"pkg/x", "go.mod"}}
	write("pkg/x/x_test.go", "package x\n\n// changed\n")
	commit("a test")
	if changed, err := Changed(root, st); err != nil || len(changed) != 0 {
		t.Errorf("after a change to a test: changed %v (%v), want none", changed, err)
	}
	for _, f := range fromThePages {
		write(f, "package live\n")
		commit("a file read off the pages")
		write(f, "package live\n\n// changed\n")
		commit("the same, changed")
	}
	if changed, err := Changed(root, Stamp{Page: "talk", Commit: st.Commit, Inputs: []string{"pkg/lab/demo"}}); err != nil || len(changed) != 0 {
		t.Errorf("after a change to %v: changed %v (%v), want none", fromThePages, changed, err)
	}
	base := git("rev-parse", "--short", "HEAD")
	for _, dir := range testHelpers {
		write(dir+"/helper.go", "package helper\n")
	}
	commit("test helpers")
	if changed, err := Changed(root, Stamp{Page: "bench", Commit: base, Inputs: []string{"pkg/lab"}}); err != nil || len(changed) != 0 {
		t.Errorf("after a change to the test helpers %v: changed %v (%v), want none", testHelpers, changed, err)
	}
	write("pkg/x/x.go", "package x\n\n// changed\n")
	commit("the code")
	if changed, err := Changed(root, st); err != nil || len(changed) != 1 || changed[0] != "pkg/x" {
		t.Errorf("after a change to the code: changed %v (%v), want pkg/x", changed, err)
	}
}

// The packages left out of the pages' inputs as test helpers are imported
// by tests alone: a package that a command or a library imported could
// change a figure.
func TestTheTestHelpersAreImportedByTestsAlone(t *testing.T) {
	list := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	list.Dir = repoRoot
	out, err := list.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			for _, dir := range testHelpers {
				if strings.HasSuffix(imp, "/"+dir) && !slices.Contains(testHelpers, strings.TrimPrefix(fields[0], "github.com/kube-rewind/kube-rewind/")) {
					t.Errorf("%s imports %s, which the pages' staleness leaves out as a test helper", fields[0], imp)
				}
			}
		}
	}
}
