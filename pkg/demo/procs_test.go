package demo

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// children lists the live processes whose parent is pid, as "pid name",
// from /proc. Zombies count as gone: they have exited.
func children(pid int) []string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var out []string
	for _, f := range stats {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// The name is in parentheses and may hold spaces; the fields
		// after it are the state and the parent's pid.
		s := string(data)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		fields := strings.Fields(s[close+1:])
		if len(fields) < 2 || fields[0] == "Z" {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == pid {
			out = append(out, fmt.Sprintf("%s %s", strings.Fields(s)[0], s[open+1:close]))
		}
	}
	return out
}
