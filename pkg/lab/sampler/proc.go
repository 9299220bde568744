package sampler

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/procfs"
)

// process returns pid's entry in /proc; ok is false when /proc cannot be
// read (not Linux, or the process is gone).
func process(pid int) (p procfs.Proc, ok bool) {
	p, err := procfs.NewProc(pid)
	return p, err == nil
}

// OpenSockets counts the sockets a process has open, from /proc/<pid>/fd:
// the descriptors whose link reads "socket:[inode]", one system call each.
// It returns -1 when /proc cannot be read (not Linux, or the process is gone).
func OpenSockets(pid int) int {
	sockets, _ := openSockets(pid)
	return sockets
}

// openSockets is OpenSockets, with the count of the process's other
// descriptors.
func openSockets(pid int) (sockets, others int) {
	p, ok := process(pid)
	if !ok {
		return -1, -1
	}
	targets, err := p.FileDescriptorTargets()
	if err != nil {
		return -1, -1
	}
	for _, t := range targets {
		switch {
		case strings.HasPrefix(t, "socket:"):
			sockets++
		case t != "":
			// An empty link is a descriptor closed between the listing
			// and the read of its link: the listing's own among them.
			others++
		}
	}
	return sockets, others
}

// openDescriptors is how many descriptors process pid has open, from one
// stat of /proc/<pid>/fd, whose size Linux gives as that count since 6.2;
// -1 where it does not (an older kernel gives 0, which no process has:
// every one holds its standard three).
func openDescriptors(pid int) int {
	fi, err := os.Stat(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil || fi.Size() <= 0 {
		return -1
	}
	return int(fi.Size())
}

// socketCounter counts the sockets of the processes a sampler reads at
// every look (the managers, every 25 ms by default), without reading
// every descriptor's link each time. The 2014 manager holds one socket
// per request in flight, thousands in a scale-up, and reading each of
// their links 40 times a second was most of rcbench's own CPU in a
// scale-up of 10 000 pods, on the cores the stack under test runs on (a
// run with -profile shows rcbench's profile by job, "the scrapes", on
// its page's laboratory share). So it reads every link (an exact
// count) only where that is cheap, at most fullAfter after the last such
// read, or where the count of descriptors cannot be had; in between, a
// process's sockets are its descriptors, from one stat, less the other
// descriptors the last exact count found. A count in between is exact
// unless the process's other descriptors (its standard three, its logs,
// its poller's) changed since that read, at most fullAfter before.
type socketCounter struct {
	mu   sync.Mutex
	last map[int]exactCount
}

// exactCount is one read of every descriptor's link.
type exactCount struct {
	at     time.Time
	others int
}

const (
	// fullAfter is how long a process's exact count stands in for its
	// other descriptors.
	fullAfter = time.Second
	// cheapDescriptors is how many descriptors are read one by one at
	// every look.
	cheapDescriptors = 256
)

// count returns pid's open sockets, -1 where /proc cannot be read.
func (c *socketCounter) count(pid int, now time.Time) int {
	n := openDescriptors(pid)
	c.mu.Lock()
	last, ok := c.last[pid]
	c.mu.Unlock()
	if n >= 0 && n > cheapDescriptors && ok && now.Sub(last.at) < fullAfter && n >= last.others {
		return n - last.others
	}
	sockets, others := openSockets(pid)
	if sockets < 0 {
		return -1
	}
	c.mu.Lock()
	if c.last == nil {
		c.last = map[int]exactCount{}
	}
	c.last[pid] = exactCount{at: now, others: others}
	c.mu.Unlock()
	return sockets
}

// ProcessUsage reads a process's CPU seconds (user and system, in the
// kernel's 10 ms ticks) and resident memory in bytes from
// /proc/<pid>/stat; ok is false when /proc cannot be read (not Linux, or
// the process is gone).
func ProcessUsage(pid int) (cpuSeconds, rssBytes float64, ok bool) {
	p, ok := process(pid)
	if !ok {
		return 0, 0, false
	}
	s, err := p.Stat()
	if err != nil {
		return 0, 0, false
	}
	return s.CPUTime(), float64(s.ResidentMemory()), true
}

// MinorFaults reads how many minor page faults a process has taken so far
// (/proc/<pid>/stat): each is a page it touched for the first time, or
// again after the runtime gave it back; ok is false when /proc cannot be
// read.
func MinorFaults(pid int) (faults int64, ok bool) {
	p, ok := process(pid)
	if !ok {
		return 0, false
	}
	s, err := p.Stat()
	return int64(s.MinFlt), err == nil
}

// ProcessCPU returns the CPU time a process has used, in seconds, to the
// nanosecond where the kernel keeps scheduler statistics: the sum of
// /proc/<pid>/task/*/schedstat's first field over the process's threads.
// Go programs seldom end a thread, so little is lost with exited threads;
// /proc/<pid>/stat counts them too, but in 10 ms ticks, which in a
// quiet window of a mostly idle manager is a spread of its own. Where
// schedstat is missing it falls back to /proc/<pid>/stat; ok is false
// when neither can be read.
func ProcessCPU(pid int) (seconds float64, ok bool) {
	if threads, err := procfs.AllThreads(pid); err == nil {
		var ns uint64
		read := 0
		for _, t := range threads {
			if s, err := t.Schedstat(); err == nil {
				ns += s.RunningNanoseconds
				read++
			}
		}
		if read > 0 {
			return float64(ns) / 1e9, true
		}
	}
	cpu, _, ok := ProcessUsage(pid)
	return cpu, ok
}

// SelfCPUSeconds returns the CPU time this process has used, user and
// system, to the microsecond.
func SelfCPUSeconds() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	seconds := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
	return seconds(ru.Utime) + seconds(ru.Stime), true
}
