package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// WriteHistory writes history.json, the timeline chart and the
// report, as Markdown and HTML, into dir.
func WriteHistory(dir string, hs *results.HistorySummary, png bool) error {
	if err := writeFile(filepath.Join(dir, "history.json"), func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(hs)
	}); err != nil {
		return err
	}
	chart, ok := charts.Timeline(hs, png)
	if ok {
		if err := writeCharts(dir, chart); err != nil {
			return err
		}
	}
	doc := historyDocument(hs, chart, ok)
	if err := writeFile(filepath.Join(dir, "report.md"), func(w *bufio.Writer) error { return writeMarkdown(w, doc) }); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "report.html"), func(w *bufio.Writer) error { return writeHTML(w, doc) })
}

// HistoryTable returns the rows of "What each fix bought" as a Markdown
// table, for examples/history/README.md.
func HistoryTable(hs *results.HistorySummary) string {
	var b strings.Builder
	writeMarkdownTable(&b, changeTable(hs.Changes))
	return b.String()
}

func statText(st *results.Stats, unit string) string {
	if st == nil {
		return "–"
	}
	return results.FormatValue(st.Median, unit) + rangeSuffix(*st)
}

func rangeSuffix(st results.Stats) string {
	if len(st.Values) < 2 || st.Min == st.Max {
		return ""
	}
	return fmt.Sprintf(" (%s–%s)", results.FormatNumber(st.Min), results.FormatNumber(st.Max))
}

func changeTable(rows []results.ChangeResult) table {
	t := table{
		header:  []string{"date", "change", "PRs and issues", "what it fixed", "scenario", "figure", "with", "without", "better", "expected", "appeared"},
		numeric: []bool{false, false, false, false, false, false, true, true, false, false, false},
	}
	for _, r := range rows {
		t.rows = append(t.rows, []string{r.Date, "`" + r.Name + "`", strings.Join(r.Refs, " "), r.Title,
			r.Scenario + " " + r.Size, strings.ReplaceAll(r.Figure, "_", " "), statText(r.With, r.Unit), statText(r.Without, r.Unit),
			r.Better, r.Expected, r.Appeared})
	}
	return t
}

func historyDocument(hs *results.HistorySummary, chart charts.Chart, haveChart bool) *document {
	d := &document{title: "kube-rewind history: what each fix bought"}
	d.p(headerText(&hs.Summary))
	d.note("Each change of pkg/history is measured on today's manager (controller-manager-modern) with the change " +
		"and with `-without=<change>`, on fresh clusters, variants alternating. The machine may be shared: the load " +
		"averages above say how busy it was, and timings (seconds, goroutines) move with it; request counts much less.")
	for _, n := range hs.Notes {
		d.note(n)
	}
	failuresNote(d, hs.Failures)

	d.h(2, "changes", "What each fix bought")
	d.p("One row per change, in the order they landed: the figure its scenario shows, medians over the runs " +
		"(lowest–highest in brackets), with the change and without it. \"Better\" says which side is better on " +
		"that figure, and where that is without the change, what the change buys at that price. \"Within noise\" " +
		"means the medians moved the expected way but the runs overlap. " + stats.Definition)
	d.table(changeTable(hs.Changes))
	var notes []string
	for _, r := range hs.Changes {
		if r.Note != "" {
			notes = append(notes, fmt.Sprintf("%s: %s", r.Name, r.Note))
		}
	}
	if len(notes) > 0 {
		d.list(notes...)
	}
	if len(hs.Unmeasured) > 0 {
		d.p("Not measured:")
		var items []string
		for _, r := range hs.Unmeasured {
			items = append(items, fmt.Sprintf("%s `%s` (%s): %s", r.Date, r.Name, strings.Join(r.Refs, " "), r.Note))
		}
		d.list(items...)
	}

	d.h(2, "timeline", "Timeline: today's manager, one change removed at a time")
	d.p(fmt.Sprintf("%s %s at every step: today's manager, then the same code without the newest change, then "+
		"without the two newest, and so on until every change that can be switched off is off; then the real "+
		"2014 manager. What is left at the last modern step is what cannot be switched off: informers and a "+
		"workqueue, the v1 objects and the modern client. Where make upstream has built it, upstream's own "+
		"replication manager of today runs first, to check our port of it.", results.TimelineScenario, hs.TimelineSize))
	if haveChart {
		d.figure(chart)
	}
	t := table{header: []string{"step", "switched off"}, numeric: []bool{false, false}}
	for _, name := range results.TimelineFigures {
		t.header = append(t.header, name)
		t.numeric = append(t.numeric, true)
	}
	for _, st := range hs.Timeline {
		off := strings.Join(st.Off, ", ")
		switch st.Variant {
		case scenario.Legacy.Name:
			off = "(the v0.4 manager)"
		case scenario.Upstream.Name:
			off = "(k8s.io/kubernetes's own, unmodified)"
		case scenario.LegacyOriginal.Name:
			off = "(the original v0.4 binary, make original)"
		}
		row := []string{st.Label, off}
		for _, name := range results.TimelineFigures {
			cell := "–"
			for _, f := range st.Figures {
				if f.Name == name {
					cell = results.FormatNumber(f.Median)
				}
			}
			row = append(row, cell)
		}
		t.rows = append(t.rows, row)
	}
	d.table(t)

	labSection(d, hs.Lab)
	profilesSection(d, hs.Profiles)

	d.h(2, "details", "Every figure of every run")
	for _, sc := range hs.Scenarios {
		for _, sz := range sc.Sizes {
			d.h(3, charts.Base(sc.Name, sz.Label), fmt.Sprintf("%s %s", sc.Name, sz.Label))
			d.p(sizeLine(sz))
			figureTable(d, sz)
		}
	}
	return d
}
