package etcdtest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
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
//
// A port is handed out once in a process's life, and never while another
// process that runs this code holds it (see claim): a port a server
// listened on stays in other components' flags after the server stops (an
// etcd member stopped in a fault test stays in its apiserver's list of
// members; a killed apiserver is started again on its port), and a cluster
// started later on the same port would answer them, so that one test's
// components read and write another's objects.
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
		port := lowest + rand.IntN(low-lowest)
		if !claim(port) {
			continue
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			continue
		}
		listeners = append(listeners, l)
		ports = append(ports, port)
	}
	return ports, nil
}

// claimed holds every port FreePorts considered in this process, with the
// lock file that keeps other processes off it (nil where none could be
// taken): it is never considered again, and the lock lasts as long as the
// process.
var claimed struct {
	sync.Mutex
	ports map[int]*os.File
}

// claim reports whether port is free to hand out: not considered before
// in this process, and not claimed by another live process. Processes
// agree through a lock (flock) on a file named for the port in a
// directory of the system's temporary one; the kernel drops a lock when
// its process ends, however it ends, so nothing goes stale. Where the
// directory or lock cannot be had (another system, a read-only temporary
// directory), only this process's record holds.
func claim(port int) bool {
	claimed.Lock()
	defer claimed.Unlock()
	if _, seen := claimed.ports[port]; seen {
		return false
	}
	if claimed.ports == nil {
		claimed.ports = map[int]*os.File{}
	}
	claimed.ports[port] = nil
	dir := filepath.Join(os.TempDir(), "kube-rewind-ports")
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return true
	}
	f, err := os.OpenFile(filepath.Join(dir, strconv.Itoa(port)), os.O_CREATE|os.O_RDONLY, 0o666)
	if err != nil {
		return true
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		// Held by another process, or locks are not to be had here.
		return err != syscall.EWOULDBLOCK
	}
	claimed.ports[port] = f
	return true
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
