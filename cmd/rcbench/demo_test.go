package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func pageFrame(url string) (demo.Frame, error) {
	var f demo.Frame
	resp, err := http.Get(url + "state.json")
	if err != nil {
		return f, err
	}
	defer resp.Body.Close()
	return f, json.NewDecoder(resp.Body).Decode(&f)
}

func TestASignalStopsTheDemoAndEveryProcessItStarted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two clusters")
	}
	rcbench := stacktest.Binary(t, "rcbench")
	bin := stacktest.BinDir(t)
	for _, tc := range []struct {
		name string
		sig  syscall.Signal
		// step says whether to run the first step before the signal:
		// then it comes while pods are being created.
		step bool
	}{
		{"Ctrl-C while pods are being created", syscall.SIGINT, true},
		{"SIGTERM while waiting for Enter", syscall.SIGTERM, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(rcbench, "demo", "-scenario=scale-up", "-replicas=300", "-period=2s",
				"-port=0", "-bin="+bin, "-dir="+t.TempDir())
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = os.Stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			var narration strings.Builder
			lines := bufio.NewScanner(stdout)
			url := ""
			for url == "" && lines.Scan() {
				if rest, ok := strings.CutPrefix(lines.Text(), "Live page: "); ok {
					url = rest
				}
			}
			go func() {
				io.Copy(&narration, stdout)
				exited <- cmd.Wait()
			}()
			defer func() {
				// Whatever happened, leave nothing behind.
				cmd.Process.Kill()
			}()
			if url == "" {
				t.Fatalf("rcbench never printed its page's address")
			}

			waitFor := func(what string, cond func(demo.Frame) bool) {
				t.Helper()
				deadline := time.Now().Add(3 * time.Minute)
				var last demo.Frame
				for time.Now().Before(deadline) {
					f, err := pageFrame(url)
					if err == nil && cond(f) {
						return
					}
					if err == nil {
						last = f
					}
					time.Sleep(100 * time.Millisecond)
				}
				t.Fatalf("gave up waiting for %s; the page last showed step %d, phase %q, waiting for Enter %v, sides %+v",
					what, last.Step, last.Phase, last.Wait, last.Sides)
			}
			// The page asks for Enter: a press from then on runs the step.
			waitFor("both clusters", func(f demo.Frame) bool {
				return f.Phase == demo.PhaseReady && f.Wait && len(f.Sides) == 2 && f.Sides[0].Ready && f.Sides[1].Ready
			})
			if tc.step {
				fmt.Fprintln(stdin)
				waitFor("pods on both sides", func(f demo.Frame) bool {
					return f.Step == 2 && f.Sides[0].Active > 0 && f.Sides[1].Active > 0
				})
			}
			started := testutil.Descendants(cmd.Process.Pid)
			if len(started) < 6 {
				t.Fatalf("expected two clusters of processes under rcbench, found %v", started)
			}

			cmd.Process.Signal(tc.sig)
			select {
			case err := <-exited:
				if code := cmd.ProcessState.ExitCode(); code != 130 {
					t.Errorf("rcbench exited with %v (code %d), want 130 after a signal\n%s", err, code, narration.String())
				}
			case <-time.After(90 * time.Second):
				t.Fatalf("rcbench did not exit within 90 s of the signal")
			}
			for _, p := range started {
				if testutil.Alive(p.PID) {
					t.Errorf("process %d (%s) outlived rcbench", p.PID, p.Name)
					syscall.Kill(p.PID, syscall.SIGKILL)
				}
			}
			if _, err := pageFrame(url); err == nil {
				t.Errorf("the live page still answers after rcbench exited")
			}
		})
	}
}
