package etcdtest

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestFreePortsAreDistinctFreeAndBelowTheEphemeralRange asks for ports
// and listens on each: all must be free, distinct, and out of the range
// the kernel hands out to outgoing connections.
func TestFreePortsAreDistinctFreeAndBelowTheEphemeralRange(t *testing.T) {
	ports, err := FreePorts(20)
	if err != nil {
		t.Fatal(err)
	}
	first, ok := ephemeralStart()
	if !ok {
		first = belowEphemeral
	}
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] {
			t.Errorf("port %d handed out twice", p)
		}
		seen[p] = true
		if p < lowest || p >= first {
			t.Errorf("port %d is not between %d and the ephemeral range's start %d", p, lowest, first)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			t.Errorf("port %d is not free: %v", p, err)
			continue
		}
		l.Close()
	}
}

// claimEnv names, in a child process of the test binary, the port it is
// to claim and hold until its standard input closes.
const claimEnv = "ETCDTEST_CLAIM_PORT"

func TestMain(m *testing.M) {
	if s := os.Getenv(claimEnv); s != "" {
		port, _ := strconv.Atoi(s)
		fmt.Println(claim(port))
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// claimInChild starts this test binary as a process that claims port, and
// returns what its claim answered and a function that ends it.
func claimInChild(t *testing.T, port int) (bool, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", claimEnv, port))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	end := func() { stdin.Close(); cmd.Wait() }
	var answer bool
	if _, err := fmt.Fscan(stdout, &answer); err != nil {
		end()
		t.Fatalf("the child claiming %d answered nothing: %v", port, err)
	}
	return answer, end
}

// TestAPortIsClaimedOnceAndNeverWhileAnotherProcessHoldsIt: a port one
// process claimed is refused to another while the first lives, and to
// the first itself for ever; it comes free when the first ends.
func TestAPortIsClaimedOnceAndNeverWhileAnotherProcessHoldsIt(t *testing.T) {
	var port int
	for {
		port = lowest + rand.IntN(1000)
		claimed.Lock()
		_, seen := claimed.ports[port]
		claimed.Unlock()
		if !seen {
			break
		}
	}
	got, end := claimInChild(t, port)
	if !got {
		end()
		t.Skipf("port %d is held by another process running these tests", port)
	}
	if claim(port) {
		t.Errorf("port %d was claimed here while another process held it", port)
	}
	end()
	got, end = claimInChild(t, port)
	end()
	if !got {
		t.Errorf("port %d stayed claimed after the process holding it ended", port)
	}
	if claim(port) {
		t.Errorf("port %d was claimed twice in one process", port)
	}
}
