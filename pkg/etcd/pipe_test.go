package etcd

import (
	"net"
	"testing"

	"golang.org/x/net/nettest"
)

// TestPipeIsAConn runs the conformance tests of net.Conn on the in-memory
// connection: reads and writes in both directions, concurrent use, past,
// present and future deadlines, and closing.
func TestPipeIsAConn(t *testing.T) {
	nettest.TestConn(t, func() (c1, c2 net.Conn, stop func(), err error) {
		c1, c2 = newPipe()
		return c1, c2, func() { c1.Close(); c2.Close() }, nil
	})
}
