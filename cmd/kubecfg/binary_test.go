package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTheBuiltBinaryExitsWithThe2014Codes builds kubecfg and runs it as a
// process, so the exit statuses are the real ones and a stack trace would
// show.
func TestTheBuiltBinaryExitsWithThe2014Codes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	bin := filepath.Join(t.TempDir(), "kubecfg")
	build := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	s := seeded(t)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"success", []string{"-h", s.URL, "get", "minions/minion-1"}, 0, "Minion identifier\n----------\nminion-1\n\n", ""},
		{"unknown verb", []string{"-h", s.URL, "frob"}, 255, "", "Unknown command frob\n"},
		{"server Status", []string{"-h", s.URL, "get", "pods/nope"}, 255, "", "pod \"nope\" not found\n"},
		{"no verb", []string{"-h", s.URL}, 1, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) {
				code = exitErr.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code || stdout.String() != tc.stdout {
				t.Errorf("exit %d stdout %q, want %d %q", code, stdout.String(), tc.code, tc.stdout)
			}
			if tc.stderr != "" && stderr.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.stderr)
			}
			if strings.Contains(stderr.String(), "goroutine ") {
				t.Errorf("stderr holds a stack trace:\n%s", stderr.String())
			}
		})
	}
}
