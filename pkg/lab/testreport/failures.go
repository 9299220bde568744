package testreport

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Failure is one test that failed in one run, with what it said.
type Failure struct {
	// Run is the go test -json file's name without .json (2014, modern).
	Run string
	// Package is the test's package, relative to the module.
	Package string
	// Test is its name, subtests included.
	Test string
	// Said holds the test's last messages ("file_test.go:52: ...") from
	// before the logs a failed stack attaches ("---- tail of ..."), each
	// cut to MessageWidth: the failure is among them, where the end of a
	// long CI log shows it.
	Said []string
}

const (
	// MessageWidth is the longest message a Failure keeps whole.
	MessageWidth = 400
	// MessagesKept is how many of a test's last messages a Failure keeps.
	MessagesKept = 4
)

// Failures reads go test -json files and returns every test that failed
// whose subtests did not (a parent fails with its subtests, which say
// why), in run, package and test order.
func Failures(module string, files []string) ([]Failure, error) {
	var out []Failure
	for _, file := range files {
		run := strings.TrimSuffix(filepath.Base(file), ".json")
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		type key struct{ pkg, test string }
		said := map[key][]string{}
		tails := map[key]bool{}
		var failed []key
		err = readEvents(f, func(e event) {
			if e.Test == "" {
				return
			}
			k := key{strings.TrimPrefix(strings.TrimPrefix(e.Package, module), "/"), e.Test}
			switch e.Action {
			case "output":
				line := strings.TrimSpace(e.Output)
				if strings.Contains(line, "---- tail of ") {
					tails[k] = true
				}
				if !tails[k] && isMessage(line) {
					said[k] = append(said[k], cut(line, MessageWidth))
				}
			case "fail":
				failed = append(failed, k)
			}
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		for _, k := range failed {
			parent := false
			for _, o := range failed {
				if o.pkg == k.pkg && strings.HasPrefix(o.test, k.test+"/") {
					parent = true
					break
				}
			}
			if parent {
				continue
			}
			msgs := said[k]
			if len(msgs) > MessagesKept {
				msgs = msgs[len(msgs)-MessagesKept:]
			}
			out = append(out, Failure{Run: run, Package: k.pkg, Test: k.test, Said: msgs})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Run != b.Run {
			return a.Run < b.Run
		}
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Test < b.Test
	})
	return out, nil
}

// isMessage reports whether a line of a test's output is one of its own
// messages, "name.go:line: text", rather than go test's or a log's.
func isMessage(line string) bool {
	file, _, ok := strings.Cut(line, ": ")
	if !ok || strings.Contains(file, " ") {
		return false
	}
	name, lineNo, ok := strings.Cut(file, ".go:")
	if !ok || name == "" || lineNo == "" {
		return false
	}
	return strings.Trim(lineNo, "0123456789") == ""
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf(" … (%d more bytes)", len(s)-n)
}

// WriteFailures prints each failure with what it said, indented.
func WriteFailures(w io.Writer, failures []Failure) {
	for _, f := range failures {
		fmt.Fprintf(w, "[%s] %s %s\n", f.Run, f.Package, f.Test)
		if len(f.Said) == 0 {
			fmt.Fprintln(w, "    (it said nothing before its logs: see the output above)")
		}
		for _, s := range f.Said {
			fmt.Fprintf(w, "    %s\n", s)
		}
	}
}
