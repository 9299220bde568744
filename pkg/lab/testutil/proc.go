//go:build linux

package testutil

import "github.com/prometheus/procfs"

// Process is one live process as /proc shows it.
type Process struct {
	PID, PPID int
	Name      string
}

// Processes lists the live processes from /proc. Zombies count as gone:
// they have exited and only wait to be reaped.
func Processes() []Process {
	all, _ := procfs.AllProcs()
	var out []Process
	for _, p := range all {
		s, err := p.Stat()
		if err != nil || s.State == "Z" {
			continue // it exited meanwhile, or waits to be reaped
		}
		out = append(out, Process{PID: s.PID, PPID: s.PPID, Name: s.Comm})
	}
	return out
}

// Alive reports whether process pid is alive: not gone, nor a zombie.
func Alive(pid int) bool {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return false
	}
	s, err := p.Stat()
	return err == nil && s.State != "Z"
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
