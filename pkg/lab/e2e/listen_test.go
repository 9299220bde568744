package e2e

import (
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// listeners returns the local address of every TCP socket in LISTEN state
// held by pid.
func listeners(pid int) []string {
	var out []string
	for _, addr := range stack.Listening(pid) {
		out = append(out, addr.String())
	}
	return out
}

// command starts one of the project's binaries and stops it, and every
// process it started, when the test ends.
func command(t *testing.T, bin string, args ...string) (*exec.Cmd, *testutil.Buffer) {
	t.Helper()
	out := &testutil.Buffer{}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("---- output of %s ----\n%s", filepath.Base(bin), out)
		}
	})
	return cmd, out
}

// waitListening waits until the processes of pid's tree hold at least n
// listening sockets, and returns their addresses.
func waitListening(t *testing.T, pid, n int, out *testutil.Buffer) []string {
	t.Helper()
	var got []string
	watchtest.Within(t, 60*time.Second, fmt.Sprintf("%d listening sockets", n), func() (bool, error) {
		got = nil
		pids := []int{pid}
		for i := 0; i < len(pids); i++ {
			got = append(got, listeners(pids[i])...)
			for _, child := range testutil.Children(pids[i]) {
				pids = append(pids, child.PID)
			}
		}
		return len(got) >= n, fmt.Errorf("%d listening: %v\n%s", len(got), got, out)
	})
	return got
}

func expectLoopbackOnly(t *testing.T, what string, addrs []string) {
	t.Helper()
	for _, addr := range addrs {
		host, _, _ := net.SplitHostPort(addr)
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			t.Errorf("%s listens on %s, which is not loopback", what, addr)
		}
	}
	t.Logf("%s listens on %v", what, addrs)
}

// TestEveryCommandListensOnLoopbackOnlyByDefault starts each command with
// its default address flags (only ports and data directories are chosen,
// so that nothing collides) and reads from /proc where it and its
// children listen.
func TestEveryCommandListensOnLoopbackOnlyByDefault(t *testing.T) {
	t.Parallel()
	dir := stacktest.BinDir(t)
	api, apiOut := command(t, filepath.Join(dir, "apiserver"), "-port=0", "-etcd_fast", "-etcd_data_dir="+t.TempDir())
	// The API, and the embedded etcd's client and peer listeners.
	addrs := waitListening(t, api.Process.Pid, 3, apiOut)
	expectLoopbackOnly(t, "apiserver", addrs)
	master := ""
	for _, a := range addrs {
		if resp, err := http.Get("http://" + a + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 && resp.Header.Get("Content-Type") == "text/plain; charset=utf-8" {
				master = "http://" + a
			}
		}
	}
	if master == "" {
		t.Fatalf("no apiserver among %v", addrs)
	}

	cm, cmOut := command(t, filepath.Join(dir, "controller-manager"), "-master="+master, "-port=0")
	expectLoopbackOnly(t, "controller-manager", waitListening(t, cm.Process.Pid, 1, cmOut))
	hn, hnOut := command(t, filepath.Join(dir, "hollow-node"), "-master="+master, "-port=0", "-nodes=1")
	expectLoopbackOnly(t, "hollow-node", waitListening(t, hn.Process.Pid, 1, hnOut))

	up, _, upOut := startLocalUp(t, "-manager_port=0", "-example=", "-nodes=1")
	// The apiserver with its etcd, the hollow nodes and a manager.
	expectLoopbackOnly(t, "local-up and its children", waitListening(t, up.Process.Pid, 5, upOut))

	// rcbench serves nothing yet: its list command must run and leave no
	// listener behind.
	bench := exec.Command(stacktest.Binary(t, "rcbench"), "list")
	if out, err := bench.CombinedOutput(); err != nil || !strings.Contains(string(out), "scale-up") {
		t.Errorf("rcbench list: %v\n%s", err, out)
	}
}

// nonLoopbackIPv4 returns an IPv4 address of this machine that is not
// loopback, or "" when there is none.
func nonLoopbackIPv4() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

// TestAServerAskedToListenOffLoopbackWarnsAndKeepsItsAdminToLoopback binds
// the apiserver, the hollow nodes and a controller-manager to a
// non-loopback address of this machine, as -address allows. Each must say
// so in its log, the embedded etcd must stay on loopback, and the admin
// endpoints must refuse a caller that is not on loopback (this test,
// connecting to that address, is seen from it).
func TestAServerAskedToListenOffLoopbackWarnsAndKeepsItsAdminToLoopback(t *testing.T) {
	t.Parallel()
	ip := nonLoopbackIPv4()
	if ip == "" {
		t.Skip("this machine has no non-loopback IPv4 address")
	}
	dir := stacktest.BinDir(t)
	api, apiOut := command(t, filepath.Join(dir, "apiserver"), "-logtostderr", "-address="+ip, "-port=0", "-etcd_fast", "-etcd_data_dir="+t.TempDir())
	apiURL := ""
	for _, a := range waitListening(t, api.Process.Pid, 3, apiOut) {
		host, _, _ := net.SplitHostPort(a)
		switch host {
		case ip:
			apiURL = "http://" + a
		case "127.0.0.1":
		default:
			t.Errorf("apiserver listens on %s", a)
		}
	}
	if apiURL == "" {
		t.Fatalf("the apiserver does not listen on %s", ip)
	}
	hn, hnOut := command(t, filepath.Join(dir, "hollow-node"), "-logtostderr", "-master="+apiURL, "-address="+ip, "-port=0", "-nodes=1")
	hnURL := "http://" + waitListening(t, hn.Process.Pid, 1, hnOut)[0]
	cm, cmOut := command(t, filepath.Join(dir, "controller-manager"), "-logtostderr", "-master="+apiURL, "-address="+ip, "-port=0")
	waitListening(t, cm.Process.Pid, 1, cmOut)

	for name, out := range map[string]*testutil.Buffer{"apiserver": apiOut, "hollow-node": hnOut, "controller-manager": cmOut} {
		if !strings.Contains(out.String(), "which is not a loopback address") {
			t.Errorf("%s bound to %s did not warn:\n%s", name, ip, out)
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, c := range []struct {
		method, url string
		want        int
	}{
		{"GET", apiURL + "/healthz", 200},
		{"GET", apiURL + "/admin/faults", 403},
		{"PUT", apiURL + "/admin/faults", 403},
		{"DELETE", apiURL + "/admin/faults", 403},
		{"GET", hnURL + "/healthz", 200},
		{"GET", hnURL + "/admin", 403},
		{"PUT", hnURL + "/admin/failFraction", 403},
		{"POST", hnURL + "/admin/nodes/hollow-node-0/fail", 403},
	} {
		req, _ := http.NewRequest(c.method, c.url, strings.NewReader(`{"value":1}`))
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("%s %s: %v", c.method, c.url, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s %s from %s: HTTP %d, want %d", c.method, c.url, ip, resp.StatusCode, c.want)
		}
	}
}
