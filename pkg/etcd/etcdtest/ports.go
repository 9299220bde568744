package etcdtest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/prometheus/procfs"
)

// FreePorts returns n distinct loopback ports that are free now, for
// servers that are told their port on the command line (etcd members
// here, whole clusters in pkg/lab/stack).
//
// A port that is free now can be taken before its server binds it. The
// kernel hands out ports for outgoing connections (and for listens on
// port 0) from its ephemeral range, and the tests of make test open
// thousands of connections side by side, so a port picked there is soon
// taken. The ports are picked at random between 10000 and that range,
// where only another FreePorts could pick them (and clear of the ports
// below 10000 that servers people run by hand use, 8080 among them).
func FreePorts(n int) ([]int, error) {
	low := belowEphemeral
	if first, ok := ephemeralStart(); ok && first-lowest >= 2*n {
		low = first
	}
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for tries := 0; len(ports) < n; tries++ {
		if tries == 1000 {
			return nil, fmt.Errorf("no %d free loopback ports under %d after %d tries", n, low, tries)
		}
		// Holding each port until all are picked keeps them distinct.
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(lowest+rand.IntN(low-lowest))))
		if err != nil {
			continue
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// AddressInUse reports whether output, a server's log or error, says that
// a port it was told to listen on is held by another process. Go's
// net.Listen, and so every server here and etcd, reports the kernel's
// EADDRINUSE in its words; a caller that picked the port with FreePorts
// then picks again.
func AddressInUse(output string) bool {
	return strings.Contains(output, syscall.EADDRINUSE.Error())
}

const (
	// lowest is the lowest port FreePorts picks.
	lowest = 10000
	// belowEphemeral is Linux's default first ephemeral port, used when
	// /proc does not say.
	belowEphemeral = 32768
)

// ephemeralStart reads the first port of the kernel's ephemeral range.
func ephemeralStart() (int, bool) {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return 0, false
	}
	r, err := fs.SysctlInts("net.ipv4.ip_local_port_range")
	if err != nil || len(r) != 2 || r[0] <= lowest {
		return 0, false
	}
	return r[0], true
}
