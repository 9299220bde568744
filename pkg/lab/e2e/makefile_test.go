package e2e

import (
	"os/exec"
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
