package testreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const module = "example.com/m"

// writeRun writes a go test -json file of events, given as
// "action package test [output]".
func writeRun(t *testing.T, dir, name string, events ...string) string {
	t.Helper()
	var b strings.Builder
	for _, e := range events {
		f := strings.SplitN(e, " ", 4)
		out := ""
		if len(f) == 4 {
			out = f[3] + "\n"
		}
		fmt.Fprintf(&b, `{"Action":%q,"Package":%q,"Test":%q,"Output":%q}`+"\n", f[0], module+"/"+f[1], f[2], out)
	}
	// go test prints a failed build among the events.
	b.WriteString("# example.com/m/broken\nbroken/x.go:1:1: expected 'package'\n")
	file := filepath.Join(dir, name+".json")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestEverySkipIsListedWithItsReasonAndTheRunsThatRanIt(t *testing.T) {
	dir := t.TempDir()
	legacy := writeRun(t, dir, "2014",
		"run pkg/a TestRuns",
		"pass pkg/a TestRuns",
		"run pkg/a TestNeedsChromium",
		"output pkg/a TestNeedsChromium === RUN   TestNeedsChromium",
		"output pkg/a TestNeedsChromium     shot_test.go:44: set KUBE_REWIND_CHROMIUM=1 to render pages",
		"output pkg/a TestNeedsChromium --- SKIP: TestNeedsChromium (0.00s)",
		"skip pkg/a TestNeedsChromium",
		"run pkg/b TestModernOnly",
		"output pkg/b TestModernOnly     history_test.go:30: the switches belong to the modern controller-manager",
		"skip pkg/b TestModernOnly",
		"run pkg/b TestTable/case",
		"skip pkg/b TestTable/case",
		// A package without tests skips as a whole: not a test.
		"skip pkg/c ",
	)
	modern := writeRun(t, dir, "modern",
		"run pkg/b TestModernOnly",
		"fail pkg/b TestModernOnly",
		"run pkg/a TestNeedsChromium",
		"output pkg/a TestNeedsChromium     shot_test.go:44: set KUBE_REWIND_CHROMIUM=1 to render pages",
		"skip pkg/a TestNeedsChromium",
	)
	skips, err := Skips(module, []string{legacy, modern})
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{
		{Package: "pkg/a", Test: "TestNeedsChromium", Reason: "set KUBE_REWIND_CHROMIUM=1 to render pages", Runs: []string{"2014", "modern"}},
		{Package: "pkg/b", Test: "TestModernOnly", Reason: "the switches belong to the modern controller-manager", Runs: []string{"2014"}, RanIn: []string{"modern"}},
		{Package: "pkg/b", Test: "TestTable/case", Reason: "(no reason given)", Runs: []string{"2014"}},
	}
	if fmt.Sprintf("%+v", skips) != fmt.Sprintf("%+v", want) {
		t.Errorf("skips:\n%+v\nwant:\n%+v", skips, want)
	}
	if _, err := Skips(module, []string{filepath.Join(dir, "missing.json")}); err == nil {
		t.Error("a missing file was read")
	}
}

func TestASkipFailsCIUnlessAnotherRunRanItOrTheAllowListSaysWhy(t *testing.T) {
	allowed, err := Allowed(strings.NewReader(`# package test why
pkg/b  TestTable/case   the machine may lack   what it needs

`))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"pkg/b TestTable/case": "the machine may lack what it needs"}; fmt.Sprint(allowed) != fmt.Sprint(want) {
		t.Errorf("allow-list %v, want %v", allowed, want)
	}
	skips := []Skip{
		{Package: "pkg/a", Test: "TestNeedsChromium", Reason: "set KUBE_REWIND_CHROMIUM=1", Runs: []string{"2014"}},
		{Package: "pkg/b", Test: "TestModernOnly", Reason: "modern only", Runs: []string{"2014"}, RanIn: []string{"modern"}},
		{Package: "pkg/b", Test: "TestTable/case", Reason: "no tool", Runs: []string{"2014", "modern"}},
	}
	bad := Check(skips, allowed)
	if len(bad) != 1 || bad[0].Test != "TestNeedsChromium" {
		t.Errorf("not allowed: %+v, want TestNeedsChromium alone", bad)
	}
	var out bytes.Buffer
	WriteSkips(&out, skips)
	want := `pkg/a TestNeedsChromium [2014]: set KUBE_REWIND_CHROMIUM=1
pkg/b TestModernOnly [2014]: modern only (ran in modern)
pkg/b TestTable/case [2014, modern]: no tool (allowed: the machine may lack what it needs)
`
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestAnAllowListEntryWithoutItsReasonIsRefused(t *testing.T) {
	if _, err := Allowed(strings.NewReader("pkg/b TestTable\n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("an entry without a reason gave %v, want an error naming its line", err)
	}
}

// TestTheCIAllowListReads keeps .ci/skips-allowed in the form CI reads.
func TestTheCIAllowListReads(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "..", ".ci", "skips-allowed"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := Allowed(f); err != nil {
		t.Error(err)
	}
}
