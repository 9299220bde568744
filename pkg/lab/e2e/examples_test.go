package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// The tests of this file run the commands of the README and of examples/
// as they are printed, against a cluster started by local-up as make run
// starts it, and check that what they print has the shape the text shows.
// Only addresses change: the cluster listens on free ports, so the README's
// 127.0.0.1:8080 and 10252 and _output/bin are replaced by this cluster's.

// exampleCluster is one local-up cluster and what the commands need.
type exampleCluster struct {
	root, bin, api, manager string
	// hints is what local-up printed up to its "Press Ctrl-C".
	hints string
}

func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// startExample starts a cluster of this test binary's design with the
// guestbook loaded, or empty when guestbook is false.
func startExample(t *testing.T, guestbook bool) *exampleCluster {
	t.Helper()
	root := repoRoot(t)
	example := "-example="
	if guestbook {
		example += filepath.Join(root, "examples", "guestbook")
	}
	// The manager listens on a port of its own choosing, which the hints
	// give: a port picked here could be taken before it listens.
	_, api, out := startLocalUp(t, example, "-manager_port=0")
	c := &exampleCluster{root: root, bin: stacktest.BinDir(t), api: api, hints: out.String(),
		manager: strings.TrimPrefix(hintedURL(t, out.String(), "controller-manager"), "http://")}
	if guestbook {
		c.eventually(t, "the guestbook's six pods Running", "kubecfg list pods", func(out string) bool {
			return strings.Count(out, " Running") == 6
		})
	}
	return c
}

// documented returns line after checking that file, relative to the
// repository, holds it as a line of its own.
func (c *exampleCluster) documented(t *testing.T, file, line string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.root, file))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if l == line {
			return line
		}
	}
	t.Fatalf("%s no longer holds the line\n%s\nso this test no longer runs what it shows", file, line)
	return ""
}

// script turns documented commands into a bash script for this cluster:
// kubecfg is the alias examples/README.md defines, and the documented
// addresses and binary directory become this cluster's.
func (c *exampleCluster) script(t *testing.T, commands string) string {
	t.Helper()
	alias := c.documented(t, "examples/README.md", `alias kubecfg="_output/bin/kubecfg -h http://127.0.0.1:8080"`)
	alias = strings.TrimSuffix(strings.TrimPrefix(alias, `alias kubecfg="`), `"`)
	r := strings.NewReplacer("_output/bin/", c.bin+"/", "http://127.0.0.1:8080", c.api, "127.0.0.1:10252", c.manager)
	return fmt.Sprintf("set -o pipefail\nkubecfg() { %s \"$@\"; }\n%s\n", r.Replace(alias), r.Replace(commands))
}

// run runs commands to completion and returns their output and exit status.
func (c *exampleCluster) run(t *testing.T, commands string) (string, int) {
	t.Helper()
	return c.runWithin(t, commands, deadline)
}

// runWithin is run with a bound of its own, for commands whose length a
// loaded machine stretches more than most (a loop of scrapes of a busy
// manager).
func (c *exampleCluster) runWithin(t *testing.T, commands string, limit time.Duration) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", c.script(t, commands))
	cmd.Dir = c.root
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("%s: did not finish within %v:\n%s", commands, limit, out)
	}
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// mustRun runs commands and fails the test unless they exit 0.
func (c *exampleCluster) mustRun(t *testing.T, commands string) string {
	t.Helper()
	out, code := c.run(t, commands)
	if code != 0 {
		t.Fatalf("%s\nexited %d:\n%s", commands, code, out)
	}
	return out
}

// eventually runs commands until check accepts their output.
func (c *exampleCluster) eventually(t *testing.T, what, commands string, check func(string) bool) string {
	t.Helper()
	var last string
	watchtest.Within(t, deadline, what, func() (bool, error) {
		var code int
		last, code = c.run(t, commands)
		if code != 0 {
			return false, fmt.Errorf("exit %d: %s", code, last)
		}
		return check(last), fmt.Errorf("last output:\n%s", last)
	})
	return last
}

// background starts commands that run until stopped (a documented
// "while true" loop) and returns their output so far; the whole process
// group is killed when the test ends.
func (c *exampleCluster) background(t *testing.T, commands string) *testutil.Buffer {
	t.Helper()
	out := &testutil.Buffer{}
	cmd := exec.Command("bash", "-c", c.script(t, commands))
	cmd.Dir = c.root
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	})
	return out
}

// frontendID returns the id of one frontend pod.
func (c *exampleCluster) frontendID(t *testing.T) string {
	t.Helper()
	out := c.mustRun(t, "kubecfg -l name=frontend list pods")
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.Contains(line, "name=frontend") {
			return f[0]
		}
	}
	t.Fatalf("no frontend pod in\n%s", out)
	return ""
}

// tableRows returns the rows of a kubecfg table below its dashes.
func tableRows(out string) [][]string {
	var rows [][]string
	seenDashes := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) > 0 && f[0] == "----------":
			seenDashes = true
		case seenDashes && len(f) > 0:
			rows = append(rows, f)
		}
	}
	return rows
}

// endpointsOf returns the endpoints of service id in a kubecfg table of
// endpoints, or nil when the row is missing.
func endpointsOf(out, id string) []string {
	for _, row := range tableRows(out) {
		if row[0] != id {
			continue
		}
		if len(row) < 2 {
			return []string{}
		}
		return strings.Split(row[1], ",")
	}
	return nil
}

// linesMatching returns the lines of out that match re, failing the test on
// any other line.
func linesMatching(t *testing.T, out string, re *regexp.Regexp) [][]string {
	t.Helper()
	var got [][]string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		m := re.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("line %q is not of the documented form %s; all output:\n%s", line, re, out)
		}
		got = append(got, m)
	}
	return got
}
