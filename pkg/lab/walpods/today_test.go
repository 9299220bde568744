package walpods

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// todayEtcd is today's stack's etcd binary, as make today builds it
// (cmd/etcd: this module's etcd member, v3.5.35, with its own settings:
// fsync on, default ticks, a snapshot every 100 000 entries, segments of
// 64 MB).
var todayEtcd = filepath.Join("..", "..", "..", "_output", "today", "etcd")

// TestFollowsTodaysEtcd runs today's etcd binary in a process of its own
// and follows its WAL while the writers and the zoo write to it: the
// reader reads files another process is writing and syncing, as it would
// in today's stack. It skips when the binary has not been built.
func TestFollowsTodaysEtcd(t *testing.T) {
	bin, err := filepath.Abs(todayEtcd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("today's etcd binary is not built (%v): make today builds it", err)
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "-data_dir="+dir, "-client_port=0", "-peer_port=0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.Create(filepath.Join(t.TempDir(), "etcd.stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	// The member says where it serves once it is ready.
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "etcd member serving at ") {
				lines <- line
			}
		}
		exited <- cmd.Wait()
	}()
	t.Cleanup(stop)
	var url string
	select {
	case line := <-lines:
		url = strings.TrimSuffix(strings.Fields(strings.TrimPrefix(line, "etcd member serving at "))[0], ",")
	case <-time.After(60 * time.Second):
		t.Fatal("today's etcd was not serving after 60 s")
	}
	out := followV3(t, url, dir, v3Config{writers: 4, ops: 250, every: 20 * time.Millisecond})
	stop()
	checkV3(t, out, false, false)
}
