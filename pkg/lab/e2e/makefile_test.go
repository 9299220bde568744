package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// makeDryRun returns the commands make would run for args, without running
// them (make -n), from the top of the repository and with an empty bin
// directory, so that the first-run message is among them.
func makeDryRun(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command("make", append([]string{"-n", "BIN=" + t.TempDir()}, args...)...)
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestMakeRunBuildsOnlyWhatItRuns: make run builds the controller-manager
// of its design only (controller-manager-modern links client-go and takes
// minutes), says so on a first run, and passes RUN_FLAGS to local-up;
// make build still builds everything.
func TestMakeRunBuildsOnlyWhatItRuns(t *testing.T) {
	t.Parallel()
	legacy := makeDryRun(t, "run", "RUN_FLAGS=-port=8081 -nodes=3")
	if strings.Contains(legacy, "controller-manager-modern") || strings.Contains(legacy, "-tags modern") {
		t.Errorf("make run builds the modern manager for the 2014 design:\n%s", legacy)
	}
	for _, want := range []string{"./cmd/controller-manager", "make run, first run: building", "-design=legacy -port=8081 -nodes=3"} {
		if !strings.Contains(legacy, want) {
			t.Errorf("make run lacks %q:\n%s", want, legacy)
		}
	}
	modern := makeDryRun(t, "run", "DESIGN=modern")
	if !strings.Contains(modern, "-tags modern") || !strings.Contains(modern, "which links client-go") {
		t.Errorf("make run DESIGN=modern does not build the modern manager, or does not say it takes long:\n%s", modern)
	}
	for _, line := range strings.Split(modern, "\n") {
		if strings.Contains(line, "build") && !strings.Contains(line, "-tags modern") && strings.Contains(line, "./cmd/controller-manager") {
			t.Errorf("make run DESIGN=modern also builds the 2014 manager: %s", line)
		}
	}
	build := makeDryRun(t, "build")
	for _, want := range []string{"./cmd/rcbench", "-tags modern", "./cmd/controller-manager"} {
		if !strings.Contains(build, want) {
			t.Errorf("make build lacks %q:\n%s", want, build)
		}
	}
}

// TestAFailedRunIsNamedOnOneLine: .ci/failed-tests, which make test prints
// last when it fails, names each failed test with its run and package, a
// failed subtest in place of its parent, and a package that failed with
// no test failing (a build, a timeout); nothing when nothing failed.
func TestAFailedRunIsNamedOnOneLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const mod = "github.com/kube-rewind/kube-rewind/"
	modern := write("modern.json",
		`{"Action":"run","Package":"`+mod+`pkg/lab/e2e","Test":"TestA"}`,
		`{"Action":"fail","Package":"`+mod+`pkg/lab/e2e","Test":"TestA/watch-window","Elapsed":1}`,
		`{"Action":"fail","Package":"`+mod+`pkg/lab/e2e","Test":"TestA","Elapsed":1}`,
		`{"Action":"pass","Package":"`+mod+`pkg/lab/e2e","Test":"TestB","Elapsed":1}`,
		`{"Action":"fail","Package":"`+mod+`pkg/lab/e2e","Elapsed":2}`,
		`{"Action":"fail","Package":"`+mod+`pkg/lab/demo","Elapsed":600,"FailedBuild":""}`)
	legacy := write("2014.json", `{"Action":"pass","Package":"`+mod+`pkg/api","Elapsed":1}`)
	run := func(files ...string) string {
		out, err := exec.Command(filepath.Join(repoRoot(t), ".ci", "failed-tests"), files...).CombinedOutput()
		if err != nil {
			t.Fatalf(".ci/failed-tests: %v\n%s", err, out)
		}
		return string(out)
	}
	want := "[modern] pkg/lab/demo (the package failed: a build, a timeout or a panic); [modern] pkg/lab/e2e TestA/watch-window\n"
	if got := run(legacy, modern); got != want {
		t.Errorf("for a failed run it printed %q, want %q", got, want)
	}
	if got := run(legacy); got != "" {
		t.Errorf("for a run that passed it printed %q, want nothing", got)
	}
}
