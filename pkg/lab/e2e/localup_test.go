package e2e

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// startLocalUp runs local-up, as make run does, for this test binary's
// design on a free apiserver port, with extra flags, and waits for its
// hints. It returns local-up's process, the apiserver's URL and everything
// printed so far.
func startLocalUp(t *testing.T, flags ...string) (*exec.Cmd, string, *testutil.Buffer) {
	t.Helper()
	// A free port can be taken between its pick and local-up's bind by a
	// test running beside this one (the two builds' tests run at once);
	// local-up then says so and stops, and another port is tried.
	for attempt := 1; ; attempt++ {
		port, err := stack.FreePort()
		if err != nil {
			t.Fatal(err)
		}
		args := append([]string{"-bin=" + stacktest.BinDir(t), "-dir=" + t.TempDir(), "-design=" + designtest.Design,
			"-port=" + strconv.Itoa(port), "-sync_period=10s"}, flags...)
		cmd, out := command(t, stacktest.Binary(t, "local-up"), args...)
		taken := false
		watchtest.Within(t, deadline, "local-up's hints", func() (bool, error) {
			if regexp.MustCompile(`(?m)^local-up: `).MatchString(out.String()) {
				if attempt < 3 && stack.PortTaken(out.String()) {
					taken = true
					return true, nil
				}
				t.Fatalf("local-up failed:\n%s", out)
			}
			return strings.Contains(out.String(), "Press Ctrl-C to stop everything."), nil
		})
		if !taken {
			return cmd, fmt.Sprintf("http://127.0.0.1:%d", port), out
		}
		t.Logf("port %d was taken before local-up could listen on it; trying another:\n%s", port, out)
	}
}

// managerMoved is the notice local-up prints when the controller-manager's
// port was taken and it serves at url instead.
func managerMoved(port int, url string) string {
	return fmt.Sprintf("Port %d was taken, so the controller-manager serves on %s instead", port, strings.TrimPrefix(url, "http://"))
}

// hintedURL returns the address local-up printed for component.
func hintedURL(t *testing.T, out, component string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(component) + ` +(http://127\.0\.0\.1:\d+) `).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("local-up printed no address for %s:\n%s", component, out)
	}
	return m[1]
}

func getBody(t *testing.T, url string) string {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s\n%s", url, resp.Status, body)
	}
	return string(body)
}

// TestLocalUpServesTheManagerOnItsPortAndPrintsEveryAddress checks what
// make run promises: the controller-manager's /metrics on the port asked
// for (10252 under make run; a free one here, so that tests do not
// collide), and a working address for every component in the hints.
func TestLocalUpServesTheManagerOnItsPortAndPrintsEveryAddress(t *testing.T) {
	t.Parallel()
	// The manager's port, too, can be taken before the manager listens on
	// it; local-up then moves the manager and says so, and the test starts
	// again on another port.
	var apiURL, text string
	var mgrPort int
	for attempt := 1; ; attempt++ {
		var err error
		if mgrPort, err = stack.FreePort(); err != nil {
			t.Fatal(err)
		}
		up, url, out := startLocalUp(t, "-example=", "-nodes=1", "-manager_port="+strconv.Itoa(mgrPort))
		apiURL, text = url, out.String()
		got := hintedURL(t, text, "controller-manager")
		if attempt == 3 || !strings.Contains(text, managerMoved(mgrPort, got)) {
			break
		}
		t.Logf("port %d was taken before the manager could listen on it; trying another", mgrPort)
		up.Process.Signal(syscall.SIGTERM)
	}
	if got := hintedURL(t, text, "apiserver"); got != apiURL {
		t.Errorf("hints give the apiserver as %s, want %s", got, apiURL)
	}
	want := fmt.Sprintf("http://127.0.0.1:%d", mgrPort)
	if got := hintedURL(t, text, "controller-manager"); got != want {
		t.Errorf("hints give the controller-manager as %s, want %s", got, want)
	}
	if strings.Contains(text, "was taken") {
		t.Errorf("local-up says a free port was taken:\n%s", text)
	}
	if body := getBody(t, want+"/metrics"); !strings.Contains(body, "go_goroutines") {
		t.Errorf("%s/metrics has no go_goroutines:\n%.500s", want, body)
	}
	getBody(t, hintedURL(t, text, "hollow-node")+"/healthz")
	getBody(t, apiURL+"/healthz")
	if etcd := hintedURL(t, text, "etcd"); !strings.HasPrefix(etcd, "http://127.0.0.1:") {
		t.Errorf("etcd's address is %s", etcd)
	}
	if !strings.Contains(text, fmt.Sprintf(`alias kubecfg="%s/kubecfg -h %s"`, stacktest.BinDir(t), apiURL)) {
		t.Errorf("the hints give no kubecfg alias for %s:\n%s", apiURL, text)
	}
	if designtest.Design == "modern" && !strings.Contains(text, "kube-controller-manager in it is the leader-election lock") {
		t.Errorf("the modern hints do not explain the lock in list endpoints:\n%s", text)
	}
	if !strings.Contains(text, "curl -s "+want+"/metrics") {
		t.Errorf("the hints do not curl the manager's /metrics:\n%s", text)
	}
}

// TestLocalUpFallsBackToAFreeManagerPortAndSaysSo holds the port asked for
// the controller-manager, as another program holding 10252 would.
func TestLocalUpFallsBackToAFreeManagerPortAndSaysSo(t *testing.T) {
	t.Parallel()
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	heldPort := held.Addr().(*net.TCPAddr).Port
	_, _, out := startLocalUp(t, "-example=", "-nodes=1", "-manager_port="+strconv.Itoa(heldPort))
	text := out.String()
	got := hintedURL(t, text, "controller-manager")
	if got == fmt.Sprintf("http://127.0.0.1:%d", heldPort) {
		t.Fatalf("the manager claims the held port %d:\n%s", heldPort, text)
	}
	if !strings.Contains(text, managerMoved(heldPort, got)) {
		t.Errorf("local-up does not say that port %d was taken:\n%s", heldPort, text)
	}
	if body := getBody(t, got+"/metrics"); !strings.Contains(body, "go_goroutines") {
		t.Errorf("%s/metrics has no go_goroutines", got)
	}
}

// TestLocalUpRefusesATakenAPIPortAndSaysHowToMoveIt: the apiserver's port
// is in every command of the README, so it does not move by itself.
func TestLocalUpRefusesATakenAPIPortAndSaysHowToMoveIt(t *testing.T) {
	t.Parallel()
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	heldPort := held.Addr().(*net.TCPAddr).Port
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	out, err := exec.CommandContext(ctx, stacktest.Binary(t, "local-up"), "-bin="+stacktest.BinDir(t), "-dir="+t.TempDir(), "-design="+designtest.Design,
		"-port="+strconv.Itoa(heldPort), "-example=", "-nodes=1").CombinedOutput()
	if err == nil || ctx.Err() != nil {
		t.Fatalf("local-up on a taken port: %v (want a failure of its own)\n%s", err, out)
	}
	if !stack.PortTaken(string(out)) || !strings.Contains(string(out), strconv.Itoa(heldPort)) {
		t.Errorf("local-up's failure does not say that port %d is taken:\n%s", heldPort, out)
	}
	if !strings.Contains(string(out), "make run RUN_FLAGS=-port=") {
		t.Errorf("local-up's failure does not say how to move the port:\n%s", out)
	}
}
