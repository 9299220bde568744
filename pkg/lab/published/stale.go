package published

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Git runs git in the repository at root and returns its output.
func Git(root string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// pathspec is git's pathspec for an input: a glob where it has one.
func pathspec(input string) string {
	if strings.ContainsAny(input, "*?[") {
		return ":(glob)" + input
	}
	return input
}

// Covers reports whether the changed file lies under input.
func Covers(input, file string) bool {
	if strings.ContainsAny(input, "*?[") {
		ok, _ := path.Match(input, file)
		return ok
	}
	return file == input || strings.HasPrefix(file, strings.TrimSuffix(input, "/")+"/")
}

// fromThePages are the files under pages' inputs that hold figures copied
// off the published pages and alter none of them. There are none now:
// talk mode's list of how long each scenario plays reads the recordings'
// lengths from the recordings themselves (pkg/lab/demo/live/lengths.go),
// where it once kept a copy that recording the talk again changed.
var fromThePages []string

// testHelpers are the packages under pages' inputs that only tests import
// (TestTheTestHelpersAreImportedByTestsAlone holds that): like a test, a
// change to one alters no page. Moving which design a test binary drives
// out of stacktest into designtest changed no figure, and would otherwise
// have marked every page.
var testHelpers = []string{"pkg/lab/stack/stacktest", "pkg/lab/stack/designtest", "pkg/lab/demo/pagetest"}

// Changed returns the inputs of st, in their order, that a commit after
// st.Commit up to HEAD changed.
func Changed(root string, st Stamp) ([]string, error) { return ChangedBy(root, st, "HEAD") }

// ChangedBy returns the inputs of st, in their order, that a commit after
// st.Commit up to rev changed, tests left out.
func ChangedBy(root string, st Stamp, rev string) ([]string, error) {
	if st.Commit == "" {
		return nil, fmt.Errorf("page %s has no commit", st.Page)
	}
	base := strings.TrimSuffix(st.Commit, "-dirty")
	args := []string{"diff", "--name-only", base, rev, "--"}
	for _, in := range st.Inputs {
		args = append(args, pathspec(in))
	}
	out, err := Git(root, args...)
	if err != nil {
		return nil, err
	}
	var changed []string
	// A test or a test helper changes no page's figures, nor does a file
	// made from the pages: a change to those alone leaves the pages
	// current.
	files := slices.DeleteFunc(strings.Fields(out), func(f string) bool {
		return strings.HasSuffix(f, "_test.go") || slices.Contains(fromThePages, f) ||
			slices.ContainsFunc(testHelpers, func(dir string) bool { return Covers(dir, f) })
	})
	for _, in := range st.Inputs {
		for _, f := range files {
			if Covers(in, f) {
				changed = append(changed, in)
				break
			}
		}
	}
	return changed, nil
}

// MissingInputs returns the inputs of p that name nothing in the tree
// at root.
func MissingInputs(root string, p Page) []string {
	var missing []string
	for _, in := range p.Inputs {
		if strings.ContainsAny(in, "*?[") {
			if m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(in))); len(m) == 0 {
				missing = append(missing, in)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(in))); err != nil {
			missing = append(missing, in)
		}
	}
	return missing
}

// Status is one page's line: what it is, where and when it was measured,
// and which of its inputs changed since.
type Status struct {
	Page    Page
	Stamp   Stamp
	Changed []string
	// Err says why Changed could not be computed.
	Err error
}

// Statuses computes every page's status at root's HEAD.
func Statuses(root string) ([]Status, error) { return StatusesAt(root, "HEAD") }

// StatusesAt computes every page's status at the commit rev.
func StatusesAt(root, rev string) ([]Status, error) {
	stamps, err := ReadStamps(root)
	if err != nil {
		return nil, err
	}
	var out []Status
	for _, p := range Pages {
		st, _ := stamps.Of(p.Name)
		s := Status{Page: p, Stamp: st}
		s.Changed, s.Err = ChangedBy(root, st, rev)
		out = append(out, s)
	}
	return out, nil
}

// Measured says when and where the page was measured: "measured at
// `96fe2d7` on 2026-11-24, in 9 min 05 s".
func (s Status) Measured() string {
	if s.Stamp.Commit == "" {
		return "not published yet (make publish PAGES=" + s.Page.Name + " writes it)"
	}
	m := fmt.Sprintf("measured at `%s`", s.Stamp.Commit)
	if !s.Stamp.Started.IsZero() {
		m += " on " + s.Stamp.Started.UTC().Format("2006-01-02")
	}
	if s.Stamp.Seconds > 0 {
		m += ", in " + FormatDuration(s.Stamp.Length())
	}
	if s.Stamp.Note != "" {
		m += " (" + s.Stamp.Note + ")"
	}
	return m
}

// Since says which of its inputs changed since the page's commit.
func (s Status) Since() string {
	switch {
	case s.Stamp.Commit == "":
		return "nothing to be stale"
	case s.Err != nil:
		return "whether its inputs changed since is unknown: " + s.Err.Error()
	case len(s.Changed) == 0:
		return "none of its inputs changed since"
	}
	return "since then " + strings.Join(s.Changed, ", ") + " changed"
}

// Stale reports whether an input changed since the page's commit.
func (s Status) Stale() bool { return len(s.Changed) > 0 || s.Err != nil }
