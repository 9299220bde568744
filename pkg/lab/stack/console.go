package stack

import (
	"fmt"
	"io"
	"os"
	"time"
)

// WriteHints writes the commands to try on a running cluster, one a line
// with its comment aligned after it (none where the comment is empty),
// and how to stop: what make run and make run STACK=today print.
func WriteHints(w io.Writer, lines [][2]string) {
	width := 0
	for _, l := range lines {
		if l[1] != "" && len(l[0]) > width {
			width = len(l[0])
		}
	}
	for _, l := range lines {
		if l[1] == "" {
			fmt.Fprintf(w, "  %s\n", l[0])
		} else {
			fmt.Fprintf(w, "  %-*s   # %s\n", width, l[0], l[1])
		}
	}
	fmt.Fprintf(w, "\nPress Ctrl-C to stop everything.\n\n")
}

// Supervised is a cluster a command runs until it is told to stop: ours
// (Stack) or today's (stack/today).
type Supervised interface {
	// Died names a process that exited by itself, or "".
	Died() string
	Stop()
}

// Supervise runs until a signal comes or one of s's processes exits by
// itself, then stops s and returns the exit code: 0 for a signal, 1 for
// a death. what names the cluster in the lines it prints; why, given the
// dead process's name, says where to look (its log), or "".
func Supervise(signals <-chan os.Signal, s Supervised, what string, why func(name string) string) int {
	ticker := time.NewTicker(500 * time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case sig := <-signals:
			fmt.Printf("\n%v: stopping %s\n", sig, what)
			s.Stop()
			return 0
		case <-ticker.C:
			if name := s.Died(); name != "" {
				if w := why(name); w != "" {
					name += " exited (" + w + ")"
				} else {
					name += " exited"
				}
				fmt.Printf("\n%s; stopping %s\n", name, what)
				s.Stop()
				return 1
			}
		}
	}
}
