package annotate

// The history catalogue on the pages: "(history: name)" references become
// links to the catalogue's page, and the figures of the last history run
// are read from its report.

import (
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	gmtext "github.com/yuin/goldmark/text"

	"github.com/kube-rewind/kube-rewind/pkg/history"
)

// HistoryPage is the catalogue's page; each entry's anchor is its name.
const HistoryPage = "history.html"

// HistoryReports are where a history run's report is read from, relative
// to the root the docs are built from, in order of preference: the last
// local run (make history), else the run published in the tree
// (PUBLISH=examples/history). Both are the same page, written by rcbench.
var HistoryReports = []string{
	"_output/history/latest/report.md",
	"examples/history/RESULTS.md",
}

// span is a byte range of a string.
type span struct{ from, to int }

// historyWord opens a citation of the catalogue: "(history: burst-cap)",
// "(2016; history: controller-ref)", "(history: burst-cap, slow-start)".
const historyWord = "history:"

// historyCited reports whether s[i:] opens a citation: "history:" right
// after "(", "; " or ", ". A bare "history:" elsewhere is ordinary text.
func historyCited(s string, i int) bool {
	if !strings.HasPrefix(s[i:], historyWord) {
		return false
	}
	before := s[:i]
	return strings.HasSuffix(before, "(") || strings.HasSuffix(before, "; ") || strings.HasSuffix(before, ", ")
}

// historyNames reads the names, separated by commas, that follow a
// citation's "history:" at s[i:], up to the first text that is no name.
// more says that s ended where another name was due (after the colon or
// a comma): a citation that a comment wraps onto its next line.
func historyNames(s string, i int) (names []span, end int, more bool) {
	for {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= '0' && s[j] <= '9' || s[j] == '-' && j > i) {
			j++
		}
		if j == i {
			return names, i, i == len(s)
		}
		names = append(names, span{i, j})
		i = j
		if i < len(s) && s[i] == ',' {
			i++
			continue
		}
		return names, i, false
	}
}

// historyLink is the link to a catalogue entry.
func historyLink(name string) string {
	return `<a class="hist" href="` + HistoryPage + "#" + name + `">` + name + `</a>`
}

// commentSpan finds chroma's comment tokens in highlighted HTML.
var commentSpan = regexp.MustCompile(`<span class="c1">([^<]*)</span>`)

// linkHistoryInCode turns the citations inside the comments of
// highlighted code into links, following a citation that a comment wraps
// onto its next line.
func linkHistoryInCode(code string) string {
	more := false
	return commentSpan.ReplaceAllStringFunc(code, func(m string) string {
		body := commentSpan.FindStringSubmatch(m)[1]
		var b strings.Builder
		from := 0
		link := func(names []span) {
			for _, n := range names {
				b.WriteString(body[from:n.from])
				b.WriteString(historyLink(body[n.from:n.to]))
				from = n.to
			}
		}
		i := 0
		if more {
			var names []span
			names, i, more = historyNames(body, len("//"))
			link(names)
		}
		for ; i < len(body); i++ {
			// A citation may open a comment line that goes on from one
			// ending in "(" or ";".
			if historyCited(body, i) || i == len("// ") && strings.HasPrefix(body[i:], historyWord) {
				var names []span
				names, i, more = historyNames(body, i+len(historyWord))
				link(names)
			}
		}
		b.WriteString(body[from:])
		return `<span class="c1">` + b.String() + `</span>`
	})
}

// historyHref finds the links to the history page's entries.
var historyHref = regexp.MustCompile(`href="` + regexp.QuoteMeta(HistoryPage) + `#([^"]*)"`)

// checkHistoryLinks fails when a page links an entry the catalogue does
// not have: a "(history: name)" with a name that is misspelt or gone.
func checkHistoryLinks(page string, data []byte) error {
	var unknown []string
	for _, m := range historyHref.FindAllSubmatch(data, -1) {
		if _, err := history.Get(string(m[1])); err != nil {
			unknown = append(unknown, string(m[1]))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("%s cites (history: %s), not in pkg/history's catalogue (known: %s)",
			page, strings.Join(unknown, ", "), strings.Join(history.Names(), ", "))
	}
	return nil
}

// historyRun is what a history run's report says about each change.
type historyRun struct {
	// Source is the report's path, relative to the root.
	Source string
	// Started is the run's start as the report gives it.
	Started string
	// Changes maps a change's name to its row.
	Changes map[string]measured
	// Notes maps a change's name to what the report says about it.
	Notes map[string]string
}

// measured is one row of the report's table "What each fix bought".
type measured struct {
	Scenario, Figure, With, Without, Expected, Appeared string
	// Better says which side is better on the figure, and why a change
	// that costs it is worth it; empty in a report that has no such column.
	Better string
}

var runStarted = regexp.MustCompile(`^Run (\d{4}-\d\d-\d\d \d\d:\d\d UTC)`)

// loadHistoryRun reads the first history report of HistoryReports that
// exists under root; nil when there is none or it has no table of changes.
func loadHistoryRun(root string) *historyRun {
	for _, rel := range HistoryReports {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		if run := parseHistoryReport(src); run != nil {
			run.Source = rel
			return run
		}
	}
	return nil
}

// parseHistoryReport reads the table under the heading "What each fix
// bought", the list of notes after it, and the run's start.
func parseHistoryReport(src []byte) *historyRun {
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	doc := md.Parser().Parse(gmtext.NewReader(src))
	run := &historyRun{Changes: map[string]measured{}, Notes: map[string]string{}}
	inSection := false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Paragraph:
			if m := runStarted.FindStringSubmatch(strings.TrimSpace(plainText(n, src))); m != nil && run.Started == "" {
				run.Started = m[1]
			}
		case *ast.Heading:
			inSection = n.Level == 2 && strings.TrimSpace(plainText(n, src)) == "What each fix bought"
		case *east.Table:
			if inSection {
				readChangeTable(n, src, run)
			}
		case *ast.List:
			if !inSection {
				continue
			}
			for it := n.FirstChild(); it != nil; it = it.NextSibling() {
				if name, note, ok := strings.Cut(strings.TrimSpace(plainText(it, src)), ": "); ok {
					if _, err := history.Get(name); err == nil {
						run.Notes[name] = note
					}
				}
			}
		}
	}
	if len(run.Changes) == 0 {
		return nil
	}
	return run
}

// readChangeTable fills run.Changes from the table's rows, finding each
// column by its header.
func readChangeTable(t *east.Table, src []byte, run *historyRun) {
	col := map[string]int{}
	var rows [][]string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.TrimSpace(plainText(c, src)))
		}
		if _, header := r.(*east.TableHeader); header {
			for i, h := range cells {
				col[h] = i
			}
			continue
		}
		rows = append(rows, cells)
	}
	get := func(cells []string, name string) string {
		if i, ok := col[name]; ok && i < len(cells) {
			return cells[i]
		}
		return ""
	}
	for _, cells := range rows {
		name := get(cells, "change")
		if _, err := history.Get(name); err != nil {
			continue
		}
		run.Changes[name] = measured{
			// A figure's name as the report writes it now, in words that
			// a narrow screen can break between.
			Scenario: get(cells, "scenario"), Figure: strings.ReplaceAll(get(cells, "figure"), "_", " "),
			With: get(cells, "with"), Without: get(cells, "without"),
			Expected: get(cells, "expected"), Appeared: get(cells, "appeared"), Better: get(cells, "better"),
		}
	}
}

// figureText says what the run measured for one change, or "".
func (run *historyRun) figureText(name string) string {
	if run == nil {
		return ""
	}
	m, ok := run.Changes[name]
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s on %s: %s with it, %s without (expected %s; appeared: %s)",
		m.Figure, m.Scenario, m.With, m.Without, m.Expected, m.Appeared)
}

// historyNote says, for a side-by-side row, which catalogue entries it is
// about and what the history run measured for each.
func historyNote(names []string, run *historyRun) template.HTML {
	var parts []string
	for _, name := range names {
		c, err := history.Get(name)
		if err != nil {
			continue
		}
		s := fmt.Sprintf("%s, %s, %s (history: %s).", c.Title, c.Date, strings.Join(c.Refs(), " "), c.Name)
		if f := run.figureText(name); f != "" {
			s += fmt.Sprintf(" Measured by the history run of %s (%s): %s.", run.Started, run.Source, f)
		}
		parts = append(parts, s)
	}
	return Inline(strings.Join(parts, " "))
}
