package testreport

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// A Skip is one test that skipped in one or more runs, with its reason.
type Skip struct {
	// Package is the test's package, relative to the module.
	Package string
	// Test is its name, subtests included ("TestX/case").
	Test string
	// Reason is what the test said when it skipped.
	Reason string
	// Runs names the runs it skipped in (a json file's name without .json:
	// 2014, modern, ...).
	Runs []string
	// RanIn names the runs in which it did run, passing or failing: a test
	// that skips in one run because another runs it is covered.
	RanIn []string
	// Allowed is the allow-list's reason for it, when it has one.
	Allowed string
}

// Key is the package and test, as the allow-list names them.
func (s Skip) Key() string { return s.Package + " " + s.Test }

// event is one line of go test -json (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// Skips reads go test -json files and returns every test that skipped in
// any of them, in package and test order, with the runs that skipped it
// and those that ran it. module is trimmed from package paths.
func Skips(module string, files []string) ([]Skip, error) {
	type key struct{ pkg, test string }
	skips := map[key]*Skip{}
	ran := map[key][]string{}
	for _, file := range files {
		run := strings.TrimSuffix(filepath.Base(file), ".json")
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		output := map[key][]string{}
		err = readEvents(f, func(e event) {
			if e.Test == "" {
				return
			}
			k := key{strings.TrimPrefix(strings.TrimPrefix(e.Package, module), "/"), e.Test}
			switch e.Action {
			case "output":
				output[k] = append(output[k], e.Output)
			case "pass", "fail":
				ran[k] = append(ran[k], run)
			case "skip":
				s := skips[k]
				if s == nil {
					s = &Skip{Package: k.pkg, Test: k.test, Reason: reason(output[k])}
					skips[k] = s
				}
				s.Runs = append(s.Runs, run)
			}
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
	}
	var out []Skip
	for k, s := range skips {
		s.RanIn = ran[k]
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, nil
}

// readEvents calls fn with each event of r. A line that is not JSON (a
// build failure printed among the events) is passed over.
func readEvents(r io.Reader, fn func(event)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			fn(e)
		}
	}
	return sc.Err()
}

// reason is what a skipped test printed, without go test's own lines and
// the file:line each message starts with.
func reason(lines []string) string {
	var out []string
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		if file, msg, ok := strings.Cut(l, ": "); ok && strings.Contains(file, ".go:") && !strings.Contains(file, " ") {
			l = msg
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return "(no reason given)"
	}
	return strings.Join(out, " / ")
}

// Allowed reads an allow-list: one skip a line, "<package> <test> <why it
// may skip>", the package relative to the module; blank lines and lines
// starting with # are passed over. An entry without its reason is an error.
func Allowed(r io.Reader) (map[string]string, error) {
	allowed := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			return nil, fmt.Errorf("line %d: %q: want <package> <test> <why it may skip>", n, line)
		}
		allowed[fields[0]+" "+fields[1]] = strings.Join(fields[2:], " ")
	}
	return allowed, sc.Err()
}

// Check fills in each skip's Allowed from allowed and returns the skips
// that neither ran in another run nor are allowed.
func Check(skips []Skip, allowed map[string]string) []Skip {
	var bad []Skip
	for i := range skips {
		skips[i].Allowed = allowed[skips[i].Key()]
		if len(skips[i].RanIn) == 0 && skips[i].Allowed == "" {
			bad = append(bad, skips[i])
		}
	}
	return bad
}

// WriteSkips prints one line per skip: where it skipped, why, and whether
// another run ran it or the allow-list allows it.
func WriteSkips(w io.Writer, skips []Skip) {
	for _, s := range skips {
		fmt.Fprintf(w, "%s %s [%s]: %s", s.Package, s.Test, strings.Join(s.Runs, ", "), s.Reason)
		switch {
		case len(s.RanIn) > 0:
			fmt.Fprintf(w, " (ran in %s)", strings.Join(s.RanIn, ", "))
		case s.Allowed != "":
			fmt.Fprintf(w, " (allowed: %s)", s.Allowed)
		}
		fmt.Fprintln(w)
	}
}
