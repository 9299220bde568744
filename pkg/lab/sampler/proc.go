package sampler

import (
	"strings"
	"syscall"

	"github.com/prometheus/procfs"
)

// process returns pid's entry in /proc; ok is false when /proc cannot be
// read (not Linux, or the process is gone).
func process(pid int) (p procfs.Proc, ok bool) {
	p, err := procfs.NewProc(pid)
	return p, err == nil
}

// OpenSockets counts the sockets a process has open, from /proc/<pid>/fd.
// It returns -1 when /proc cannot be read (not Linux, or the process is gone).
func OpenSockets(pid int) int {
	p, ok := process(pid)
	if !ok {
		return -1
	}
	targets, err := p.FileDescriptorTargets()
	if err != nil {
		return -1
	}
	n := 0
	for _, t := range targets {
		if strings.HasPrefix(t, "socket:") {
			n++
		}
	}
	return n
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
