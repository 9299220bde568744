package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

func TestADeckIsMadeOfAnOutlineAndAnOutlineInErrorIsNamed(t *testing.T) {
	bin := stacktest.Binary(t, "rcbench")
	dir := t.TempDir()
	page := filepath.Join(dir, "talk.html")
	out, err := exec.Command(bin, "deck", "-o", page, "-root", "../..", "../../examples/talk/20-minutes.md").CombinedOutput()
	if err != nil {
		t.Fatalf("rcbench deck of the shipped outline: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "18 slides, 6 recordings") {
		t.Errorf("rcbench deck says %q", out)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	shipped, err := os.ReadFile("../../examples/talk/20-minutes.html")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(html, shipped) {
		t.Errorf("rcbench deck makes another page of the shipped outline than the shipped deck")
	}

	bad := filepath.Join(dir, "bad.md")
	if err := os.WriteFile(bad, []byte("# A talk\n\n## Code\n\ncode: pkg/controller noSuchDeclaration\n\n## R\n\nrecording: nowhere.html\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"deck", "-o", page, bad}, "nowhere.html"},
		{[]string{"deck", "-o", page, bad, "../../examples/talk/overlap.html"}, "an outline is the deck's only argument"},
	} {
		out, err := exec.Command(bin, tc.args...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(string(out), tc.says) {
			t.Errorf("rcbench %v: %v, %s; want exit 1 saying %q", tc.args, err, out, tc.says)
		}
	}
}

func TestMakeDemoListsHowLongEachScenarioPlays(t *testing.T) {
	bin := stacktest.Binary(t, "rcbench")
	out, err := exec.Command(bin, "demo", "-list").CombinedOutput()
	if err != nil {
		t.Fatalf("rcbench demo -list: %v\n%s", err, out)
	}
	for _, want := range []string{"two-managers", "The audience sees: "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("rcbench demo -list lacks %q:\n%s", want, out)
		}
	}
	// The length is the shipped recording's (pkg/lab/demo/live keeps them
	// equal), which a recording made again changes.
	if !regexp.MustCompile(`two-managers +plays [0-9]+ s at N=20`).Match(out) {
		t.Errorf("rcbench demo -list gives two-managers no length at N=20:\n%s", out)
	}
}
