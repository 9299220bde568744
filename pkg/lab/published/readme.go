package published

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The README's "The last published runs" holds a line per page between
// these markers, which ReadmeLines writes (rcbench publish -readme).
const (
	ReadmeFile  = "README.md"
	ReadmeBegin = "<!-- rcbench publish -readme writes the lines below, from examples/published.json and the pages' inputs in pkg/lab/published: do not edit them by hand -->"
	ReadmeEnd   = "<!-- end of the lines rcbench publish -readme writes -->"
)

// readmeOpens are the opening words of ReadmeBegin, by which the block is
// found: the rest of the marker says where the lines come from, and
// rewriting the block rewrites it too, so that it follows the code when
// the code moves.
const readmeOpens = "<!-- rcbench publish -readme writes the lines below"

// readmeMarkers returns where the begin marker starts, where the lines
// after it start, and where the end marker starts, in readme.
func readmeMarkers(readme string) (begin, lines, end int, ok bool) {
	begin = strings.Index(readme, readmeOpens)
	if begin < 0 {
		return 0, 0, 0, false
	}
	nl := strings.IndexByte(readme[begin:], '\n')
	if nl < 0 {
		return 0, 0, 0, false
	}
	lines = begin + nl + 1
	end = strings.Index(readme[lines:], ReadmeEnd)
	if end < 0 {
		return 0, 0, 0, false
	}
	return begin, lines, lines + end, true
}

// ReadmeLines are the README's lines, one per page, as of the commit
// asOf: a line says what changed up to that commit, so that a later
// commit leaves it true of the commit it names (make docs says the same
// of the tree it is built from).
func ReadmeLines(asOf string, statuses []Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "As of `%s`:\n", asOf)
	for _, s := range statuses {
		fmt.Fprintf(&b, "- %s, [%s](%s): %s; %s.\n", s.Page.Title, s.Page.Link, s.Page.Link, s.Measured(), s.Since())
	}
	return b.String()
}

// ReplaceReadme returns readme with the lines between the markers
// replaced by lines.
func ReplaceReadme(readme, lines string) (string, error) {
	begin, _, end, ok := readmeMarkers(readme)
	if !ok {
		return "", fmt.Errorf("%s has no lines between %q and %q", ReadmeFile, ReadmeBegin, ReadmeEnd)
	}
	return readme[:begin] + ReadmeBegin + "\n" + lines + readme[end:], nil
}

// ReadmeAsOf returns the commit a README block was written as of.
func ReadmeAsOf(block string) (string, bool) {
	rest, ok := strings.CutPrefix(block, "As of `")
	if !ok {
		return "", false
	}
	rev, _, ok := strings.Cut(rest, "`")
	return rev, ok && rev != ""
}

// ReadmeBlock returns the lines now between the README's markers.
func ReadmeBlock(readme string) (string, bool) {
	_, lines, end, ok := readmeMarkers(readme)
	if !ok {
		return "", false
	}
	return readme[lines:end], true
}

// UpdateReadme rewrites the README's lines at root from the pages'
// statuses at rev, and reports whether they changed;
// rev names the commit (empty: HEAD's).
func UpdateReadme(root, rev string) (bool, error) {
	head := rev
	if head == "" {
		out, err := Git(root, "rev-parse", "--short", "HEAD")
		if err != nil {
			return false, err
		}
		head = strings.TrimSpace(out)
	}
	statuses, err := StatusesAt(root, head)
	if err != nil {
		return false, err
	}
	path := filepath.Join(root, ReadmeFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	updated, err := ReplaceReadme(string(data), ReadmeLines(head, statuses))
	if err != nil || updated == string(data) {
		return false, err
	}
	return true, os.WriteFile(path, []byte(updated), 0o644)
}
