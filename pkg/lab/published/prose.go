package published

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The markers of a reference in Markdown (see Reference).
const (
	citeOpen  = "<!-- cite "
	citeClose = "<!-- /cite -->"
)

// citation is one reference as a file writes it.
type citation struct {
	ref Reference
	err error
	// line is from 1; value is what the file shows, at [start, end) of
	// the file's text.
	line       int
	value      string
	start, end int
}

var citePattern = regexp.MustCompile(`<!-- cite ((?:[^-]|-[^-])*?)-->(.*?)<!-- /cite -->`)

// citations finds the references of a Markdown file's text; one shown
// as code (an example of the syntax) is none.
func citations(text string) []citation {
	var code [][]int
	for _, re := range []*regexp.Regexp{fence, inlineCode} {
		code = append(code, re.FindAllStringIndex(text, -1)...)
	}
	inCode := func(at int) bool {
		for _, c := range code {
			if at >= c[0] && at < c[1] {
				return true
			}
		}
		return false
	}
	var out []citation
	for _, m := range citePattern.FindAllStringSubmatchIndex(text, -1) {
		if inCode(m[0]) {
			continue
		}
		ref, err := ParseReference(text[m[2]:m[3]])
		out = append(out, citation{ref: ref, err: err, line: 1 + strings.Count(text[:m[0]], "\n"),
			value: text[m[4]:m[5]], start: m[4], end: m[5]})
	}
	return out
}

// ProseFiles are the Markdown files of the repository at root whose
// figures must be references: every README.md and the talk's outline,
// the pages themselves (RESULTS.md) and build output left out.
func ProseFiles(root string) ([]string, error) {
	var out []string
	err := walkTree(root, func(rel, path string, d fs.DirEntry) error {
		if d.Name() == "README.md" || rel == "examples/talk/20-minutes.md" {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// walkTree calls visit for every file of the repository at root, by its
// path relative to root (with slashes) and its path, passing over what
// is no source of the repository's: hidden and _-prefixed directories
// (.git, _output), testdata, vendor and node_modules.
func walkTree(root string, visit func(rel, path string, d fs.DirEntry) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		return visit(rel, path, d)
	})
}

// proseFiles are ProseFiles, or those of them only names.
func proseFiles(root string, only []string) ([]string, error) {
	files, err := ProseFiles(root)
	if err != nil || len(only) == 0 {
		return files, err
	}
	var out []string
	for _, f := range files {
		for _, o := range only {
			if f == o {
				out = append(out, f)
			}
		}
	}
	if len(out) < len(only) {
		return nil, fmt.Errorf("only some of %s are prose files (%s)", strings.Join(only, ", "), strings.Join(files, ", "))
	}
	return out, nil
}

// A Drift is what rcbench publish -check finds wrong in prose.
type Drift struct {
	File string
	Line int
	// Written is what the file shows; Page what the page says, empty
	// when the reference reads nothing.
	Written, Page string
	Why           string
}

func (d Drift) String() string {
	if d.Page != "" {
		return fmt.Sprintf("%s:%d: writes %q where the page says %q (%s)", d.File, d.Line, d.Written, d.Page, d.Why)
	}
	return fmt.Sprintf("%s:%d: %q: %s", d.File, d.Line, d.Written, d.Why)
}

// sheets reads each page once.
type sheets struct {
	root string
	read map[string]*Sheet
	errs map[string]error
}

func (c *sheets) get(name string) (*Sheet, error) {
	if c.read == nil {
		c.read, c.errs = map[string]*Sheet{}, map[string]error{}
	}
	if s, ok := c.read[name]; ok {
		return s, c.errs[name]
	}
	s, err := ReadSheet(c.root, name)
	c.read[name], c.errs[name] = s, err
	return s, err
}

// fill returns text with every reference's value read from its page,
// and what could not be read.
func (c *sheets) fill(file, text string) (string, []Drift) {
	var b strings.Builder
	var drifts []Drift
	last := 0
	for _, ct := range citations(text) {
		value, err := ct.render(c)
		if err != nil {
			drifts = append(drifts, Drift{File: file, Line: ct.line, Written: ct.value, Why: err.Error()})
			continue
		}
		b.WriteString(text[last:ct.start])
		b.WriteString(value)
		last = ct.end
	}
	b.WriteString(text[last:])
	return b.String(), drifts
}

func (ct citation) render(c *sheets) (string, error) {
	if ct.err != nil {
		return "", ct.err
	}
	s, err := c.get(ct.ref.Page)
	if err != nil {
		return "", err
	}
	return ct.ref.Render(s)
}

// FillProse writes every reference of the prose files at root from the
// pages (rcbench publish does after each page), and returns the files
// it changed. A file with a reference it cannot read is left as it is,
// and named in the error, which lists every such reference; the other
// files are written. only, when given, names the files to fill.
func FillProse(root string, only ...string) ([]string, error) {
	files, err := proseFiles(root, only)
	if err != nil {
		return nil, err
	}
	c := &sheets{root: root}
	var changed []string
	var drifts []Drift
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return changed, err
		}
		text, ds := c.fill(f, string(data))
		if len(ds) > 0 {
			drifts = append(drifts, ds...)
			continue
		}
		if text == string(data) {
			continue
		}
		if err := os.WriteFile(filepath.Join(root, f), []byte(text), 0o644); err != nil {
			return changed, err
		}
		changed = append(changed, f)
	}
	if len(drifts) > 0 {
		return changed, driftError(drifts)
	}
	return changed, nil
}

type driftError []Drift

func (e driftError) Error() string {
	var lines []string
	for _, d := range e {
		lines = append(lines, d.String())
	}
	return fmt.Sprintf("%d reference(s) cannot be read, and their files are left as they were:\n%s", len(e), strings.Join(lines, "\n"))
}

// CheckProse is rcbench publish -check: every reference of the prose
// files at root shows what its page says, and no figure of the prose
// looks measured without being a reference, but for the constants of
// the designs, which allowed gives (see Constant). only, when given,
// names the files to check.
func CheckProse(root string, allowed []Constant, only ...string) ([]Drift, error) {
	files, err := proseFiles(root, only)
	if err != nil {
		return nil, err
	}
	c := &sheets{root: root}
	var drifts []Drift
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		drifts = append(drifts, c.check(f, string(data), allowed)...)
	}
	return drifts, nil
}

func (c *sheets) check(file, text string, allowed []Constant) []Drift {
	var drifts []Drift
	for _, ct := range citations(text) {
		value, err := ct.render(c)
		switch {
		case err != nil:
			drifts = append(drifts, Drift{File: file, Line: ct.line, Written: ct.value, Why: err.Error()})
		case value != ct.value:
			drifts = append(drifts, Drift{File: file, Line: ct.line, Written: ct.value, Page: value,
				Why: "changed by hand or the page since: rcbench publish -cite writes it"})
		}
	}
	for _, u := range Uncited(text, allowed) {
		drifts = append(drifts, Drift{File: file, Line: u.Line, Written: u.Text,
			Why: "looks measured and cites no page (a reference, or a constant of pkg/lab/publish's allow-list)"})
	}
	return drifts
}

// Uncite returns Markdown text with its references' markers taken out,
// each leaving the value it shows: the text as a code host shows it, for
// a reader of the Markdown that would show the markers as text (the
// deck's outline shows raw HTML as text).
func Uncite(text string) string {
	return citePattern.ReplaceAllString(text, "$2")
}
