package sampler

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
