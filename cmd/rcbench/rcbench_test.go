package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"

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
		for name := range subcommands {
			if !strings.Contains(text, "\n  "+name+" ") {
				t.Errorf("rcbench %v does not describe %s:\n%s", tc.args, name, text)
			}
		}
		if !strings.Contains(text, tc.alsoMentions) {
			t.Errorf("rcbench %v does not say %q:\n%s", tc.args, tc.alsoMentions, text)
		}
	}
	for _, sub := range []string{"bench", "demo", "replay"} {
		if code := status(exec.Command(bin, sub, "-h").Run()); code != 0 {
			t.Errorf("rcbench %s -h: exit %d, want 0", sub, code)
		}
	}
}

func TestEverySubcommandHasASummary(t *testing.T) {
	for name := range subcommands {
		if summaries[name] == "" {
			t.Errorf("subcommand %s has no line in summaries, so rcbench -h cannot describe it", name)
		}
	}
}
