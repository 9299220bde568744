package sampler

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// The socket counter counts a process's sockets as a read of every
// descriptor's link does: at once where the process has few descriptors,
// and, where it has many, from one stat of its descriptors less the
// others that the last full read found, which it reads again once that
// read is fullAfter old. What it cannot see in between is a change in the
// other descriptors: it counts each new one as a socket until the next
// full read.
func TestTheSocketCounterCountsAsEveryLinkWould(t *testing.T) {
	if openDescriptors(os.Getpid()) < 0 {
		t.Skip("this kernel does not give /proc/<pid>/fd's size as its count of descriptors (Linux 6.2 and later do)")
	}
	pid := os.Getpid()
	var fds []int
	t.Cleanup(func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	})
	open := func(n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
			if err != nil {
				t.Fatal(err)
			}
			fds = append(fds, fd)
		}
	}
	var c socketCounter
	now := time.Now()
	check := func(when string, at time.Time) int {
		t.Helper()
		got, want := c.count(pid, at), OpenSockets(pid)
		if got != want {
			t.Errorf("%s: the counter says %d sockets, reading every link %d", when, got, want)
		}
		return got
	}
	check("a few descriptors", now)
	open(cheapDescriptors + 50)
	check("more descriptors than are read one by one, first look", now)
	open(100)
	check("100 sockets more, a moment later", now.Add(fullAfter/2))

	// Another kind of descriptor, opened in between: counted as a
	// socket until the next full read.
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := c.count(pid, now.Add(fullAfter/2)), OpenSockets(pid); got != want+1 {
		t.Errorf("with a file opened since the last full read: %d, want the %d sockets and the file", got, want)
	}
	check("the next full read", now.Add(2*fullAfter))
}
