package pages

import (
	"os"
	"path/filepath"
	"testing"
)

// The table of changes names the better side alone: a run's page follows
// "without it" with what the change buys at that price, a sentence the
// change's entry gives in full, and in a column of the table it pushed
// the page past a phone's edge.
func TestTheTableOfChangesNamesTheBetterSideAlone(t *testing.T) {
	for cell, want := range map[string]string{
		"with it":    "with it",
		"without it": "without it",
		"without it: The PUTs are requests the 2014 manager never sent. They buy a status that says what the manager saw.": priced,
		"with it: fewer requests": "with it",
	} {
		if got := betterSide(cell); got != want {
			t.Errorf("betterSide(%q) = %q, want %q", cell, got, want)
		}
	}
	// The published history run: every cell its table shows is short. It
	// is read from a folder of its own, since LoadHistoryRun prefers a
	// local make history's report where there is one.
	root := t.TempDir()
	published, err := os.ReadFile(filepath.Join(repoRoot, "examples/history/RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "examples/history"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "examples/history/RESULTS.md"), published, 0o644); err != nil {
		t.Fatal(err)
	}
	run := LoadHistoryRun(root)
	if run == nil || len(run.Changes) == 0 {
		t.Fatal("the published history run has no table of changes")
	}
	long := 0
	for name, m := range run.Changes {
		if len(m.Better) > len(priced) {
			long++
		}
		if got := betterSide(m.Better); got != "with it" && got != priced {
			t.Errorf("%s: the table of changes would show %q for the run's %q", name, got, m.Better)
		}
	}
	// status-writes and qps cost their figures (history.Change.WithoutMore).
	if long == 0 {
		t.Error("no cell of the published run says what a change buys at its price: the case above was not read")
	}
}
