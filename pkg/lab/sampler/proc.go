package sampler

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// OpenSockets counts the sockets a process has open, from /proc/<pid>/fd.
// It returns -1 when /proc cannot be read (not Linux, or the process is gone).
func OpenSockets(pid int) int {
	dir := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return -1
	}
	n := 0
	for _, e := range entries {
		target, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err == nil && strings.HasPrefix(target, "socket:") {
			n++
		}
	}
	return n
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's CPU times; Linux
// reports 100 on every architecture Go supports.
const clockTicks = 100

// ProcessUsage reads a process's CPU seconds (user and system) and
// resident memory in bytes from /proc/<pid>/stat; ok is false when /proc
// cannot be read (not Linux, or the process is gone).
func ProcessUsage(pid int) (cpuSeconds, rssBytes float64, ok bool) {
	fields, ok := statFields(pid)
	// utime and stime are fields 14 and 15, rss (in pages) field 24.
	const utime, stime, rss = 14 - 3, 15 - 3, 24 - 3
	if !ok || len(fields) <= rss {
		return 0, 0, false
	}
	u, err1 := strconv.ParseFloat(fields[utime], 64)
	s, err2 := strconv.ParseFloat(fields[stime], 64)
	pages, err3 := strconv.ParseFloat(fields[rss], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return 0, 0, false
	}
	return (u + s) / clockTicks, pages * float64(os.Getpagesize()), true
}

// MinorFaults reads how many minor page faults a process has taken so far
// (field 10 of /proc/<pid>/stat): each is a page it touched for the first
// time, or again after the runtime gave it back; ok is false when /proc
// cannot be read.
func MinorFaults(pid int) (faults int64, ok bool) {
	fields, ok := statFields(pid)
	const minflt = 10 - 3
	if !ok || len(fields) <= minflt {
		return 0, false
	}
	n, err := strconv.ParseInt(fields[minflt], 10, 64)
	return n, err == nil
}

// statFields reads /proc/<pid>/stat from its third field, the state, on.
// The command name before it, in brackets, may hold spaces, so the fields
// are counted from its closing bracket.
func statFields(pid int) ([]string, bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil, false
	}
	end := strings.LastIndexByte(string(data), ')')
	if end < 0 {
		return nil, false
	}
	return strings.Fields(string(data[end+1:])), true
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
	dir := filepath.Join("/proc", strconv.Itoa(pid), "task")
	tasks, err := os.ReadDir(dir)
	if err == nil {
		var ns float64
		read := 0
		for _, t := range tasks {
			data, err := os.ReadFile(filepath.Join(dir, t.Name(), "schedstat"))
			if err != nil {
				continue
			}
			fields := strings.Fields(string(data))
			if len(fields) == 0 {
				continue
			}
			if v, err := strconv.ParseFloat(fields[0], 64); err == nil {
				ns += v
				read++
			}
		}
		if read > 0 {
			return ns / 1e9, true
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
