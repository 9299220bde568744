package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// TestHelpListsEverySubcommandAndExits0 runs the built binary, so the exit
// status is the one a shell sees.
func TestHelpListsEverySubcommandAndExits0(t *testing.T) {
	bin := stacktest.Binary(t, "rcbench")
	status := func(err error) int {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	for _, tc := range []struct {
		args         []string
		code         int
		stdout       bool
		alsoMentions string
	}{
		{[]string{"-h"}, 0, true, ""},
		{[]string{"--help"}, 0, true, ""},
		{[]string{"help"}, 0, true, ""},
		{nil, 2, false, ""},
		{[]string{"frob"}, 2, false, `unknown command "frob"`},
		{[]string{"-frob"}, 2, false, `unknown command "-frob"`},
	} {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, tc.args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if code := status(cmd.Run()); code != tc.code {
			t.Errorf("rcbench %v: exit %d, want %d", tc.args, code, tc.code)
		}
		text := stderr.String()
		if tc.stdout {
			text = stdout.String()
		}
		for _, c := range subcommands {
			if !strings.Contains(text, "\n  "+c.name+" ") {
				t.Errorf("rcbench %v does not describe %s:\n%s", tc.args, c.name, text)
			}
		}
		if !strings.Contains(text, tc.alsoMentions) {
			t.Errorf("rcbench %v does not say %q:\n%s", tc.args, tc.alsoMentions, text)
		}
	}
	for _, sub := range []string{"bench", "demo", "replay", "deck"} {
		if code := status(exec.Command(bin, sub, "-h").Run()); code != 0 {
			t.Errorf("rcbench %s -h: exit %d, want 0", sub, code)
		}
	}
}

func TestEverySubcommandHasASummary(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range subcommands {
		if c.summary == "" {
			t.Errorf("subcommand %s has no summary, so rcbench -h cannot describe it", c.name)
		}
		if seen[c.name] || c.run == nil {
			t.Errorf("subcommand %q is listed twice or runs nothing", c.name)
		}
		seen[c.name] = true
	}
}

func TestTheListLinesTheTitlesUpAfterTheLongestName(t *testing.T) {
	var out bytes.Buffer
	listTo(&out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	column := -1
	for i, line := range lines {
		// Every title, and every "reproduces", starts in one column.
		at := strings.Index(line, "  ") + 2
		if i%2 == 1 {
			at = strings.Index(line, "reproduces")
		} else {
			for at < len(line) && line[at] == ' ' {
				at++
			}
		}
		if column < 0 {
			column = at
		}
		if at != column {
			t.Errorf("line %d starts its text at column %d, not %d: %q", i+1, at, column, line)
		}
	}
	if !strings.Contains(out.String(), "partial-scale-down  Scaled down") {
		t.Errorf("the longest name is not followed by two spaces:\n%s", out.String())
	}
}

func TestADeckIsOnePageOfTheRecordingsGiven(t *testing.T) {
	bin := stacktest.Binary(t, "rcbench")
	page := filepath.Join(t.TempDir(), "talk.html")
	talk := "../../examples/talk/"
	out, err := exec.Command(bin, "deck", "-o", page, "-title", "Two of them", talk+"two-managers.html", talk+"overlap.html").CombinedOutput()
	if err != nil {
		t.Fatalf("rcbench deck: %v\n%s", err, out)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="deck"`, "Two of them", `"name":"two-managers"`, `"name":"overlap"`} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("the deck lacks %s", want)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"deck"}, 2, "name the recordings"},
		{[]string{"deck", "-still-size=big", talk + "overlap.html"}, 2, "WIDTHxHEIGHT"},
		{[]string{"deck", "-o", page, talk + "20-minutes.html"}, 1, "deck"},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != tc.code || !strings.Contains(string(out), tc.says) {
			t.Errorf("rcbench %v: %v, %s; want exit %d saying %q", tc.args, err, out, tc.code, tc.says)
		}
	}
}

func TestSplitListDropsBlanks(t *testing.T) {
	got := strings.Join(splitList(" scale-up, ,idle,"), "|")
	if got != "scale-up|idle" {
		t.Errorf("splitList = %q", got)
	}
}

// A benchmark with a failed run exits 1; a sweep whose failed run is a
// design's breaking point exits 0, since that break is what it measures
// (make publish would otherwise take a finished sweep for a failed one).
func TestASweepThatFoundABreakingPointSucceeds(t *testing.T) {
	failed := []results.Failure{{Scenario: "scale-up", Size: "N=10000", Variant: "stack-today-unthrottled", Run: 1}}
	for _, tc := range []struct {
		name  string
		sum   results.Summary
		sweep bool
		want  int
	}{
		{"bench, all finished", results.Summary{}, false, 0},
		{"bench, a run failed", results.Summary{Failures: failed}, false, 1},
		{"sweep, a design broke", results.Summary{Failures: failed}, true, 0},
		{"sweep, interrupted", results.Summary{Interrupted: true}, true, 130},
	} {
		tc.sum.Options.Sweep = tc.sweep
		if got := exitCode(&tc.sum); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}
