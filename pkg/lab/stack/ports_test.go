package stack

import (
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
)

// TestPortTakenKnowsWhatAStartOnAHeldPortSays starts a stack on an
// apiserver port that this test holds, and listens on that port again as
// a component told it would: PortTaken must know both failures, which are
// what a command that starts a stack prints when its port was taken, and
// no other.
func TestPortTakenKnowsWhatAStartOnAHeldPortSays(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	port := held.Addr().(*net.TCPAddr).Port

	s, startErr := Start(Config{Dir: t.TempDir(), APIPort: port, NoHollowNodes: true, Output: func(string) io.Writer { return io.Discard }})
	if startErr == nil {
		s.Stop()
		t.Fatalf("a stack started with its apiserver on the held port %d", port)
	}
	if !strings.Contains(startErr.Error(), strconv.Itoa(port)) {
		t.Errorf("the failed start does not name the held port %d: %v", port, startErr)
	}
	_, listenErr := net.Listen("tcp", held.Addr().String())
	if listenErr == nil {
		t.Fatalf("a second listen on %s succeeded", held.Addr())
	}

	for _, tc := range []struct {
		name, output string
		want         bool
	}{
		{"the stack's check before a start", "local-up: " + startErr.Error() + "\n", true},
		{"a component's failed listen", "apiserver            | apiserver: cannot listen on " + held.Addr().String() + ": " + listenErr.Error() + "\n", true},
		{"a component that stopped for another reason", "local-up: apiserver exited before becoming healthy: exit status 2\n", false},
		{"a manager that moved to a free port", "Port 10252 was taken, so the controller-manager serves on 127.0.0.1:10253 instead\n", false},
		{"no output", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PortTaken(tc.output); got != tc.want {
				t.Errorf("PortTaken(%q) = %v, want %v", tc.output, got, tc.want)
			}
		})
	}
}
