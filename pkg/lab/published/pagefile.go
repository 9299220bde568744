package published

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// A Sheet is a published page read for its figures: its lines, and its
// Markdown tables, each under the heading it follows. Prose cites a
// figure of a sheet (see Reference) rather than copying it, so that
// republishing the page brings the prose up to date.
type Sheet struct {
	// Page is the name a reference gives it (published.Pages' names,
	// and mutation).
	Page string
	// File is where it was read from, relative to the repository.
	File   string
	Lines  []string
	Tables []Table
}

// A Table is one Markdown table of a sheet.
type Table struct {
	// Heading is the last heading above it, without its #s.
	Heading string
	Header  []string
	Rows    [][]string
	// Line is the header's line, from 1.
	Line int
}

// sheetFiles are the files a reference's page names: every published
// page that is a results page, and the mutation score (make mutate).
// The talk and the deck are no results pages: prose reads what they
// show from the recordings themselves (see the talk's README).
func sheetFiles() map[string]string {
	files := map[string]string{"mutation": "examples/mutation/RESULTS.md"}
	for _, p := range Pages {
		if strings.HasSuffix(p.Link, "RESULTS.md") {
			files[p.Name] = p.Link
		}
	}
	return files
}

// SheetNames lists the pages a reference may name.
func SheetNames() []string {
	var out []string
	for _, p := range Pages {
		if strings.HasSuffix(p.Link, "RESULTS.md") {
			out = append(out, p.Name)
		}
	}
	out = append(out, "mutation")
	for name := range MoreSheets {
		out = append(out, name)
	}
	return out
}

// MoreSheets are pages that are no Markdown page but whose figures prose
// cites: the talk's recordings, which pkg/lab/publish reads (a layer
// above this one) and gives as a sheet.
var MoreSheets = map[string]func(root string) (*Sheet, error){}

// ReadSheet reads the page called name in the repository at root.
func ReadSheet(root, name string) (*Sheet, error) {
	if read, ok := MoreSheets[name]; ok {
		return read(root)
	}
	file, ok := sheetFiles()[name]
	if !ok {
		return nil, fmt.Errorf("no published page %q to cite (the pages: %s)", name, strings.Join(SheetNames(), ", "))
	}
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		return nil, err
	}
	return ParseSheet(name, file, string(data)), nil
}

// ParseSheet reads a page's text.
func ParseSheet(name, file, text string) *Sheet {
	s := &Sheet{Page: name, File: file, Lines: strings.Split(text, "\n")}
	heading := ""
	for i := 0; i < len(s.Lines); i++ {
		line := s.Lines[i]
		if h, ok := strings.CutPrefix(line, "#"); ok {
			heading = strings.TrimSpace(strings.TrimLeft(h, "#"))
			continue
		}
		if !isRow(line) || i+1 >= len(s.Lines) || !isDelimiter(s.Lines[i+1]) {
			continue
		}
		t := Table{Heading: heading, Header: cells(line), Line: i + 1}
		i += 2
		for ; i < len(s.Lines) && isRow(s.Lines[i]); i++ {
			t.Rows = append(t.Rows, cells(s.Lines[i]))
		}
		i--
		s.Tables = append(s.Tables, t)
	}
	return s
}

func isRow(line string) bool {
	line = strings.TrimSpace(line)
	return strings.HasPrefix(line, "|") && strings.HasSuffix(line, "|") && len(line) > 1
}

var delimiterCell = regexp.MustCompile(`^:?-+:?$`)

func isDelimiter(line string) bool {
	if !isRow(line) {
		return false
	}
	for _, c := range cells(line) {
		if !delimiterCell.MatchString(c) {
			return false
		}
	}
	return true
}

// cells splits a table row; a \| inside a cell is no boundary.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var out []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(out, strings.TrimSpace(b.String()))
}

// column returns the index of the header cell called name, or -1.
func (t Table) column(name string) int {
	for i, h := range t.Header {
		if h == name {
			return i
		}
	}
	return -1
}

// figureToken is how a page writes a figure: a number, signed or not,
// (1 000 in groups, spaced by a space or a no-break space, or 1000) with its unit where one follows it; or a
// length such as 9 min 52 s.
var figureToken = regexp.MustCompile(`\d+ h \d+ min|\d+ min \d+ s|[+−-]?(?:\d{1,3}(?:[ \x{a0}\x{202f}]\d{3})+|\d+)(?:\.\d+)?(?:(?: ?(?:CPU s|CPU ms|MiB|MB|GB|kB|ms|min|s|%|×|pods/s|/min|/s)(?:[^\pL\pN/]|$))|k\b)?`)

// figures returns the figures of text, in order, each trimmed of what
// followed its unit.
func figures(text string) []string {
	var out []string
	for _, m := range figureToken.FindAllStringIndex(text, -1) {
		// A digit inside a word (k8s, v0.4's 4) or a version is no figure.
		if m[0] > 0 && isWordByte(text[m[0]-1]) {
			continue
		}
		f := strings.TrimRightFunc(text[m[0]:m[1]], func(r rune) bool { return !isFigureEnd(r) })
		out = append(out, f)
	}
	return out
}

func isWordByte(b byte) bool {
	return b == '.' || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

func isFigureEnd(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '%' || r == '×' || r == 's'
}
