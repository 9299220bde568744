package testreport

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// repoRoot is the module's folder, from this package's.
var repoRoot = filepath.Join("..", "..", "..")

func TestGremlinsOutputBecomesCountsAndSurvivorsWithTheirCode(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "pkg", "x", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(root, "pkg", "x", "a.go"), []byte("package x\n\n\tif n < 0 {\n"), 0o644)
	os.WriteFile(filepath.Join(root, "pkg", "x", "sub", "b.go"), []byte("package sub\nn++\n"), 0o644)
	out := `{"go_module":"m","files":[
	{"file_name":"sub/b.go","mutations":[{"type":"INCREMENT_DECREMENT","status":"NOT COVERED","line":2,"column":2}]},
	{"file_name":"a.go","mutations":[
		{"type":"CONDITIONALS_NEGATION","status":"KILLED","line":3,"column":7},
		{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":3,"column":7},
		{"type":"ARITHMETIC_BASE","status":"TIMED OUT","line":3,"column":4},
		{"type":"ARITHMETIC_BASE","status":"NOT VIABLE","line":3,"column":4}]}]}`
	counts, survivors, err := ReadGremlins(strings.NewReader(out), root, Target{Dir: "pkg/x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{Killed: 1, Lived: 1, TimedOut: 1, NotViable: 1, NotCovered: 1}; len(counts) != len(want) {
		t.Errorf("counts %v, want %v", counts, want)
	} else {
		for k, n := range want {
			if counts[k] != n {
				t.Errorf("counts %v, want %v", counts, want)
			}
		}
	}
	want := []Mutant{
		{File: "pkg/x/a.go", Line: 3, Column: 7, Mutator: "CONDITIONALS_BOUNDARY", Status: Lived, Code: "if n < 0 {"},
		{File: "pkg/x/sub/b.go", Line: 2, Column: 2, Mutator: "INCREMENT_DECREMENT", Status: NotCovered, Code: "n++"},
	}
	if len(survivors) != len(want) || survivors[0] != want[0] || survivors[1] != want[1] {
		t.Errorf("survivors %+v, want %+v", survivors, want)
	}
	r := Result{Counts: counts}
	// Caught: the killed and the hung, of all but the one that did not
	// compile.
	if got := r.Caught(); got != 0.5 {
		t.Errorf("caught %v, want 2 of 4", got)
	}
	if (Result{}).Caught() != 0 {
		t.Errorf("a run without mutants caught some")
	}
}

func TestEverySurvivorOfAnExplainedTargetNeedsItsReason(t *testing.T) {
	explanations, err := ReadExplanations(strings.NewReader(`# file | mutator | column | code | why
pkg/x/a.go | CONDITIONALS_BOUNDARY | 7 | if n < 0 { | with n 0 the branch
    does nothing either way
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(explanations) != 1 || explanations[0].Why != "with n 0 the branch does nothing either way" {
		t.Fatalf("explanations %+v", explanations)
	}
	lives := Mutant{File: "pkg/x/a.go", Line: 30, Column: 7, Mutator: "CONDITIONALS_BOUNDARY", Status: Lived, Code: "if n < 0 {"}
	// The line moved: the reason follows it. Another column, mutator or
	// code is another mutant.
	if Explain(explanations, lives) == "" {
		t.Error("a survivor whose line moved lost its reason")
	}
	other := lives
	other.Column = 8
	unexplained := []Result{
		{Target: Target{Dir: "pkg/x", Build: "2014", Explain: true}, Survivors: []Mutant{lives, other}},
		{Target: Target{Dir: "pkg/y", Build: "2014"}, Survivors: []Mutant{other}},
	}
	if bad := Unexplained(unexplained, explanations); len(bad) != 1 || bad[0] != other {
		t.Errorf("unexplained %+v, want the mutant at column 8 of pkg/x alone", bad)
	}
	for _, bad := range []string{"a.go | X | 7 | code\n", "a.go | X | seven | code | why\n", "a.go | X | 7 | code | \n"} {
		if _, err := ReadExplanations(strings.NewReader(bad)); err == nil {
			t.Errorf("%q was read", bad)
		}
	}

	var page bytes.Buffer
	WritePage(&page, unexplained, explanations)
	for _, want := range []string{
		"| pkg/x | 2014 | 0 |",
		"| pkg/x/a.go:30:7 | CONDITIONALS_BOUNDARY | LIVED | `if n < 0 {` | with n 0 the branch does nothing either way |",
		"| pkg/x/a.go:30:8 | CONDITIONALS_BOUNDARY | LIVED | `if n < 0 {` | **unexplained** |",
	} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the page lacks %q:\n%s", want, page.String())
		}
	}
	if strings.Contains(page.String(), "pkg/y/") {
		t.Errorf("the page lists the survivors of a target that needs no reasons:\n%s", page.String())
	}
}

func TestARunOfSomePackagesKeepsTheOthersResults(t *testing.T) {
	old := []Result{
		{Target: Target{Dir: "pkg/b", Build: "2014"}, Commit: "old"},
		{Target: Target{Dir: "pkg/a", Build: "modern"}, Commit: "old"},
		{Target: Target{Dir: "pkg/a", Build: "2014"}, Commit: "old"},
	}
	got := Merge(old, []Result{{Target: Target{Dir: "pkg/a", Build: "2014"}, Commit: "new"}})
	var names []string
	for _, r := range got {
		names = append(names, r.Dir+" "+r.Build+" "+r.Commit)
	}
	if want := "pkg/a 2014 new, pkg/a modern old, pkg/b 2014 old"; strings.Join(names, ", ") != want {
		t.Errorf("merged %v, want %s", names, want)
	}
}

// TestTheTagDecidesWhichBuildsAndFilesAreMutated: a package the modern
// tag changes is mutated in both builds, each leaving alone the files its
// build does not compile; the crash checker's run mutates crash.go alone.
func TestTheTagDecidesWhichBuildsAndFilesAreMutated(t *testing.T) {
	builds, err := buildsOf(repoRoot, Target{Dir: "pkg/controller"})
	if err != nil {
		t.Fatal(err)
	}
	if len(builds) != 2 || builds[0].Build != "2014" || builds[1].Build != "modern" {
		t.Errorf("pkg/controller builds %+v, want 2014 and modern", builds)
	}
	if builds, err := buildsOf(repoRoot, Target{Dir: "pkg/apiserver"}); err != nil || len(builds) != 1 {
		t.Errorf("pkg/apiserver builds %+v (%v), want 2014 alone", builds, err)
	}
	for _, tc := range []struct {
		t            Target
		left, mutate []string
	}{
		{Target{Dir: "pkg/controller", Build: "2014"}, []string{"replication_controller_modern.go"}, []string{"replication_controller.go"}},
		{Target{Dir: "pkg/controller", Build: "modern"}, []string{"replication_controller.go", "pod_control.go"}, []string{"replication_controller_modern.go", "pod_control_modern.go"}},
		{Target{Dir: "pkg/lab/scenario", Build: "2014", Files: []string{"scripts/crash.go"}}, []string{"scripts/scale.go", "env.go"}, []string{"scripts/crash.go"}},
		{Target{Dir: "pkg/registry", Build: "2014"}, nil, []string{"etcd/etcd.go"}},
	} {
		re, err := excluded(repoRoot, tc.t)
		if err != nil {
			t.Fatal(err)
		}
		// gremlins matches the expression against each file's path below
		// the package folder.
		match := func(f string) bool { return re != "" && regexp.MustCompile(re).MatchString(f) }
		for _, f := range tc.left {
			if !match(f) {
				t.Errorf("%+v: %s is mutated (%s)", tc.t, f, re)
			}
		}
		for _, f := range tc.mutate {
			if match(f) {
				t.Errorf("%+v: %s is left alone (%s)", tc.t, f, re)
			}
		}
	}
}

// TestThePublishedScoreExplainsEverySurvivorThatMustBe reads the page's
// results and reasons as committed: no mutant that lives in the managers
// or the crash checker goes without its reason, and no reason names a
// mutant that no longer lives.
func TestThePublishedScoreExplainsEverySurvivorThatMustBe(t *testing.T) {
	dir := filepath.Join(repoRoot, "examples", "mutation")
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var results []Result
	if err := json.Unmarshal(data, &results); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "survivors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	explanations, err := ReadExplanations(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range Unexplained(results, explanations) {
		t.Errorf("%s:%d:%d %s (%s) lives without its reason in survivors.txt", m.File, m.Line, m.Column, m.Mutator, m.Code)
	}
	for _, e := range explanations {
		found := false
		for _, r := range results {
			for _, m := range r.Survivors {
				found = found || Explain([]Explanation{e}, m) != ""
			}
		}
		if !found {
			t.Errorf("survivors.txt explains %s %s at column %d of %q, which no published run left alive", e.File, e.Mutator, e.Column, e.Code)
		}
	}
}

// TestAMutantThatDoesNotCompileIsNotViable: gremlins counts a package that
// no longer builds as killed; a + between strings made a - is no catch of
// any test, and counts as not viable, while a * made a / compiles.
func TestAMutantThatDoesNotCompileIsNotViable(t *testing.T) {
	root := t.TempDir()
	src := "package x\n\nfunc F(n int) (string, int) {\n\treturn \"a\" + \"b\", n * 2\n}\n"
	os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/m\n\ngo 1.26\n"), 0o644)
	os.MkdirAll(filepath.Join(root, "pkg", "x"), 0o755)
	file := filepath.Join(root, "pkg", "x", "x.go")
	os.WriteFile(file, []byte(src), 0o644)
	target := Target{Dir: "pkg/x", Build: "2014"}
	concat := Mutant{File: "pkg/x/x.go", Line: 4, Column: 13, Mutator: "ARITHMETIC_BASE"}
	times := Mutant{File: "pkg/x/x.go", Line: 4, Column: 22, Mutator: "ARITHMETIC_BASE"}
	if compiles(root, target, concat) {
		t.Error(`"a" - "b" compiled`)
	}
	if !compiles(root, target, times) {
		t.Error("n / 2 did not compile")
	}
	if data, _ := os.ReadFile(file); string(data) != src {
		t.Errorf("the file was not put back:\n%s", data)
	}
	out := `{"files":[{"file_name":"x.go","mutations":[
		{"type":"ARITHMETIC_BASE","status":"KILLED","line":4,"column":13},
		{"type":"ARITHMETIC_BASE","status":"KILLED","line":4,"column":22}]}]}`
	counts, _, err := ReadGremlins(strings.NewReader(out), root, target, func(m Mutant) bool { return compiles(root, target, m) })
	if err != nil {
		t.Fatal(err)
	}
	if counts[Killed] != 1 || counts[NotViable] != 1 {
		t.Errorf("counts %v, want one killed and one not viable", counts)
	}
}

// TestAMutantHangsOnlyAfterTheFloor: the coefficient stands where ten
// times the unmutated run is long enough, and grows where it is not, so
// that a mutant's own build on a busy machine is never taken for a hang.
func TestAMutantHangsOnlyAfterTheFloor(t *testing.T) {
	for _, tc := range []struct {
		unmutated time.Duration
		want      int
	}{
		{27 * time.Second, 10},              // 270 s: ten times is enough
		{1700 * time.Millisecond, 71},       // 17 s would not be: 71 × 1.7 s ≥ 2 min
		{12 * time.Second, 10},              // exactly the floor
		{0, 10},                             // no measurement: as asked
		{time.Duration(1), int(MinTimeout)}, // a run of nothing still ends
	} {
		got := CoefficientFor(tc.unmutated, 10, MinTimeout)
		if got != tc.want {
			t.Errorf("CoefficientFor(%v) = %d, want %d", tc.unmutated, got, tc.want)
		}
		if tc.unmutated > 0 && time.Duration(got)*tc.unmutated < MinTimeout {
			t.Errorf("CoefficientFor(%v) = %d times out after %v, before %v", tc.unmutated, got, time.Duration(got)*tc.unmutated, MinTimeout)
		}
	}
}
