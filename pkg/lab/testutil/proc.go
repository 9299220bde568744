//go:build linux

package testutil

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Process is one live process as /proc shows it.
type Process struct {
	PID, PPID int
	Name      string
}

// Processes lists the live processes from /proc. Zombies count as gone:
// they have exited and only wait to be reaped.
func Processes() []Process {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []Process
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // it exited meanwhile
		}
		// "pid (name) state ppid ...": the name may hold spaces and
		// parentheses, so it ends at the last ')'.
		s := string(data)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		rest := strings.Fields(s[close+1:])
		if len(rest) < 2 || rest[0] == "Z" {
			continue
		}
		pid, err1 := strconv.Atoi(strings.TrimSpace(s[:open]))
		ppid, err2 := strconv.Atoi(rest[1])
		if err1 != nil || err2 != nil {
			continue
		}
		out = append(out, Process{PID: pid, PPID: ppid, Name: s[open+1 : close]})
	}
	return out
}

// Children lists the live processes whose parent is pid.
func Children(pid int) []Process {
	var out []Process
	for _, p := range Processes() {
		if p.PPID == pid {
			out = append(out, p)
		}
	}
	return out
}

// Descendants lists the live processes below pid: its children, theirs,
// and so on.
func Descendants(pid int) []Process {
	all := Processes()
	parent := make(map[int]int, len(all))
	for _, p := range all {
		parent[p.PID] = p.PPID
	}
	var out []Process
	for _, p := range all {
		for q := p.PPID; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
			if _, known := parent[q]; !known {
				break
			}
		}
	}
	return out
}
