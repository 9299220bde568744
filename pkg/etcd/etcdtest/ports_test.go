package etcdtest

import (
	"net"
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
