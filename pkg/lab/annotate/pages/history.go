package pages

// What the last history run measured, read from its report: the history
// page shows each change's figure, and a side-by-side row the figures of
// the changes it is about.

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
	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate"
)

// HistoryReports are where a history run's report is read from, relative
// to the root the docs are built from, in order of preference: the last
// local run (make history), else the run published in the tree
// (PUBLISH=examples/history). Both are the same page, written by rcbench.
var HistoryReports = []string{
	"_output/history/latest/report.md",
	"examples/history/RESULTS.md",
}

// HistoryRun is what a history run's report says about each change.
type HistoryRun struct {
	// Source is the report's path, relative to the root.
	Source string
	// Started is the run's start as the report gives it.
	Started string
	// Changes maps a change's name to its row.
	Changes map[string]Measured
	// Notes maps a change's name to what the report says about it.
	Notes map[string]string
}

// Measured is one row of the report's table "What each fix bought".
type Measured struct {
	Scenario, Figure, With, Without, Expected, Appeared string
	// Better says which side is better on the figure, and why a change
	// that costs it is worth it; empty in a report that has no such column.
	Better string
}

var runStarted = regexp.MustCompile(`^Run (\d{4}-\d\d-\d\d \d\d:\d\d UTC)`)

// LoadHistoryRun reads the first history report of HistoryReports that
// exists under root; nil when there is none or it has no table of changes.
func LoadHistoryRun(root string) *HistoryRun {
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
func parseHistoryReport(src []byte) *HistoryRun {
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	doc := md.Parser().Parse(gmtext.NewReader(src))
	run := &HistoryRun{Changes: map[string]Measured{}, Notes: map[string]string{}}
	inSection := false
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Paragraph:
			if m := runStarted.FindStringSubmatch(strings.TrimSpace(annotate.PlainText(n, src))); m != nil && run.Started == "" {
				run.Started = m[1]
			}
		case *ast.Heading:
			inSection = n.Level == 2 && strings.TrimSpace(annotate.PlainText(n, src)) == "What each fix bought"
		case *east.Table:
			if inSection {
				readChangeTable(n, src, run)
			}
		case *ast.List:
			if !inSection {
				continue
			}
			for it := n.FirstChild(); it != nil; it = it.NextSibling() {
				if name, note, ok := strings.Cut(strings.TrimSpace(annotate.PlainText(it, src)), ": "); ok {
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
func readChangeTable(t *east.Table, src []byte, run *HistoryRun) {
	col := map[string]int{}
	var rows [][]string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.TrimSpace(annotate.PlainText(c, src)))
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
		run.Changes[name] = Measured{
			// A figure's name as the report writes it now, in words that
			// a narrow screen can break between.
			Scenario: get(cells, "scenario"), Figure: strings.ReplaceAll(get(cells, "figure"), "_", " "),
			With: get(cells, "with"), Without: get(cells, "without"),
			Expected: get(cells, "expected"), Appeared: get(cells, "appeared"), Better: get(cells, "better"),
		}
	}
}

// figureText says what the run measured for one change, or "".
func (run *HistoryRun) figureText(name string) string {
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
func historyNote(names []string, run *HistoryRun) template.HTML {
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
	return annotate.Inline(strings.Join(parts, " "))
}
