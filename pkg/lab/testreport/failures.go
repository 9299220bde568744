package testreport

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

// A Failure is one test, or one package without a failed test, that
// failed in one run, with what it said.
type Failure struct {
	// Run names the run as .ci/failed-tests does: the go test -json
	// file's name without .json, race* as race and upstream* as upstr.
	Run string
	// Package is the package, relative to the module.
	Package string
	// Test is the test's name, subtests included; empty for a package
	// that failed without a failed test (a build, a timeout, a panic).
	Test string
	// Said holds the last MessagesKept messages the test wrote
	// ("file_test.go:52: ..."), each with at most ContinuationsKept of
	// its further lines, every line cut to MessageWidth. The logs a
	// failed stack attaches ("---- tail of ...") are left out, whether
	// they came before or after the failure. For a package, its first
	// lines of output.
	Said []string
}

const (
	// MessageWidth is the longest line a Failure keeps whole.
	MessageWidth = 400
	// MessagesKept is how many of a test's last messages a Failure keeps.
	MessagesKept = 4
	// ContinuationsKept is how many further lines of one message it keeps.
	ContinuationsKept = 3
)

// message is one message of a test: its first line and those after it.
type message struct {
	lines []string
	more  int
	tail  bool
}

// Failures reads go test -json files and returns every test that failed
// whose subtests did not (a parent fails with its subtests, which say
// why), and every package that failed without a failed test, in run,
// package and test order.
func Failures(module string, files []string) ([]Failure, error) {
	var out []Failure
	for _, file := range files {
		run := runName(file)
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		type key struct{ pkg, test string }
		said := map[key][]*message{}
		var failed []key
		err = readEvents(f, func(e event) {
			k := key{strings.TrimPrefix(strings.TrimPrefix(e.Package, module), "/"), e.Test}
			switch e.Action {
			case "output":
				line := strings.TrimRight(e.Output, "\n")
				if e.Test == "" {
					if l := strings.TrimSpace(line); l != "" && !strings.HasPrefix(l, "FAIL") && !strings.HasPrefix(l, "ok ") {
						said[k] = append(said[k], &message{lines: []string{cut(l, MessageWidth)}})
					}
					return
				}
				said[k] = addLine(said[k], line)
			case "fail":
				failed = append(failed, k)
			}
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		for _, k := range failed {
			hidden := false
			for _, o := range failed {
				if o.pkg == k.pkg && o != k && (k.test == "" || strings.HasPrefix(o.test, k.test+"/")) {
					hidden = true
					break
				}
			}
			if hidden {
				continue
			}
			var kept []*message
			for _, m := range said[k] {
				if !m.tail {
					kept = append(kept, m)
				}
			}
			if len(kept) > MessagesKept {
				if k.test == "" {
					// A package's first lines say why: the build's
					// error, the panic or the timeout, before the dump.
					kept = kept[:MessagesKept]
				} else {
					kept = kept[len(kept)-MessagesKept:]
				}
			}
			var msgs []string
			for _, m := range kept {
				msgs = append(msgs, m.lines...)
				if m.more > 0 {
					msgs = append(msgs, fmt.Sprintf("    … (%d more lines)", m.more))
				}
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

// runName names a go test -json file's run as .ci/failed-tests does.
func runName(file string) string {
	run := strings.TrimSuffix(filepath.Base(file), ".json")
	switch {
	case strings.HasPrefix(run, "race"):
		return "race"
	case strings.HasPrefix(run, "upstream"):
		return "upstr"
	}
	return run
}

// addLine adds one line of a test's output to its messages. go test -v
// writes a test's message as "    file.go:N: text", at four spaces, and
// the message's further lines at eight; a panic starts at the margin. Its
// own lines ("=== RUN", "--- FAIL") belong to no message. A message that
// attaches a stack's logs ("---- tail of ...") is marked, to be left out.
func addLine(msgs []*message, line string) []*message {
	trimmed := strings.TrimLeft(line, " ")
	indent := len(line) - len(trimmed)
	switch {
	case trimmed == "" || strings.HasPrefix(trimmed, "=== ") || strings.HasPrefix(trimmed, "--- "):
		return msgs
	case indent <= 4 && (isMessage(trimmed) || strings.HasPrefix(trimmed, "panic: ")):
		return append(msgs, &message{lines: []string{cut(trimmed, MessageWidth)}, tail: strings.Contains(trimmed, "---- tail of ")})
	case len(msgs) > 0:
		m := msgs[len(msgs)-1]
		if len(m.lines) <= ContinuationsKept {
			m.lines = append(m.lines, "    "+cut(trimmed, MessageWidth))
		} else {
			m.more++
		}
	}
	return msgs
}

// isMessage reports whether a line of a test's output, its indent
// removed, starts as a test's message does: "name.go:line: text".
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

// cut returns s whole if it is at most n bytes, or its first n bytes, to
// a character's end, and how many more there were.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf(" … (%d more bytes)", len(s)-n)
}

// WriteFailures prints each failure with what it said, indented.
func WriteFailures(w io.Writer, failures []Failure) {
	for _, f := range failures {
		name := f.Package + " " + f.Test
		if f.Test == "" {
			name = f.Package + " (the package failed: a build, a timeout or a panic)"
		}
		fmt.Fprintf(w, "[%s] %s\n", f.Run, name)
		if len(f.Said) == 0 {
			fmt.Fprintln(w, "    (it said nothing but its logs: see the output above)")
		}
		for _, s := range f.Said {
			fmt.Fprintf(w, "    %s\n", s)
		}
	}
}
