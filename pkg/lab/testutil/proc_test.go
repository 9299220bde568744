//go:build linux

package testutil

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestAChildAndItsChildAreFoundAndAnExitedOneIsNot(t *testing.T) {
	// sh starts sleep as its own child and waits for it.
	cmd := exec.Command("sh", "-c", "sleep 30; true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	shell := cmd.Process.Pid
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()

	var sleeper int
	for i := 0; i < 1000 && sleeper == 0; i++ {
		time.Sleep(10 * time.Millisecond)
		for _, p := range Children(shell) {
			if p.Name == "sleep" {
				sleeper = p.PID
			}
		}
	}
	if sleeper == 0 {
		t.Fatalf("sleep not found among the shell's children %v", Children(shell))
	}
	found := map[int]bool{}
	for _, p := range Descendants(os.Getpid()) {
		found[p.PID] = true
	}
	if !found[shell] || !found[sleeper] {
		t.Errorf("descendants of the test %v lack the shell %d or its sleep %d", found, shell, sleeper)
	}

	cmd.Process.Kill()
	cmd.Wait()
	for _, p := range Children(os.Getpid()) {
		if p.PID == shell {
			t.Errorf("the shell %d is still a child after it was reaped", shell)
		}
	}
}
