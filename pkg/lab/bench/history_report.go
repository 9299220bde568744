package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// TimelineChart is the file name of the timeline chart, under charts/.
const TimelineChart = "history_timeline"

// writeHistoryReport writes history.json, the timeline chart and the
// report, as Markdown and HTML, into dir.
func writeHistoryReport(dir string, hs *HistorySummary, png bool) error {
	if err := writeFile(filepath.Join(dir, "history.json"), func(w *bufio.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(hs)
	}); err != nil {
		return err
	}
	chart, ok := timelineChart(hs, png)
	if ok {
		chartDir := filepath.Join(dir, "charts")
		if err := os.MkdirAll(chartDir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(chartDir, chart.Name+".svg"), chart.SVG, 0o644); err != nil {
			return err
		}
		if len(chart.PNG) > 0 {
			if err := os.WriteFile(filepath.Join(chartDir, chart.Name+".png"), chart.PNG, 0o644); err != nil {
				return err
			}
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
func HistoryTable(hs *HistorySummary) string {
	var b strings.Builder
	writeMarkdownTable(&b, changeTable(hs.Changes))
	return b.String()
}

func statText(st *Stats, unit string) string {
	if st == nil {
		return "–"
	}
	return formatValue(st.Median, unit) + rangeSuffix(*st)
}

func rangeSuffix(st Stats) string {
	if len(st.Values) < 2 || st.Min == st.Max {
		return ""
	}
	return fmt.Sprintf(" (%s–%s)", formatNumber(st.Min), formatNumber(st.Max))
}

func changeTable(rows []ChangeResult) table {
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

func historyDocument(hs *HistorySummary, chart Chart, haveChart bool) *document {
	d := &document{title: "kube-rewind history: what each fix bought"}
	d.p(header(&hs.Summary))
	d.note("Each change of pkg/history is measured on today's manager (controller-manager-modern) with the change " +
		"and with -without=<change>, on fresh clusters, variants alternating. The machine may be shared: the load " +
		"averages above say how busy it was, and timings (seconds, goroutines) move with it; request counts much less.")
	for _, n := range hs.Notes {
		d.note(n)
	}
	failuresNote(d, hs.Failures)

	d.h(2, "changes", "What each fix bought")
	d.p("One row per change, in the order they landed: the figure its scenario shows, medians over the runs " +
		"(lowest–highest in brackets), with the change and without it. \"Better\" says which side is better on " +
		"that figure, and where that is without the change, what the change buys at that price. \"Within noise\" " +
		"means the medians moved the expected way but the runs overlap.")
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
		"replication manager of today runs first, to check our port of it.", TimelineScenario, hs.TimelineSize))
	if haveChart {
		d.figure(chart)
	}
	t := table{header: []string{"step", "switched off"}, numeric: []bool{false, false}}
	for _, name := range timelineFigures {
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
		for _, name := range timelineFigures {
			cell := "–"
			for _, f := range st.Figures {
				if f.Name == name {
					cell = formatNumber(f.Median)
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
			d.h(3, chartBase(sc.Name, sz.Label), fmt.Sprintf("%s %s", sc.Name, sz.Label))
			d.p(sizeLine(sz))
			figureTable(d, sz)
		}
	}
	return d
}

// timelineChart draws one panel per timeline figure, a bar per step.
func timelineChart(hs *HistorySummary, png bool) (Chart, bool) {
	var panels []*plot.Plot
	for _, name := range timelineFigures {
		var names, labels []string
		var stats []Stats
		var proto Figure
		for _, st := range hs.Timeline {
			for _, f := range st.Figures {
				if f.Name == name {
					names = append(names, st.Variant)
					labels = append(labels, st.Label)
					stats = append(stats, f.Stats)
					proto = f
				}
			}
		}
		if len(stats) == 0 {
			continue
		}
		p := barPanel(figureTitle(proto), names, stats)
		p.NominalX(labels...)
		p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
		p.X.Tick.Label.Rotation = math.Pi / 4
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		panels = append(panels, p)
	}
	if len(panels) == 0 {
		return Chart{}, false
	}
	var grid [][]*plot.Plot
	for i := 0; i < len(panels); i += 2 {
		row := make([]*plot.Plot, 2)
		copy(row, panels[i:min(i+2, len(panels))])
		grid = append(grid, row)
	}
	var items legendItems
	items.add("today", swatch("modern"))
	items.add("today, changes switched off", swatch("without-"))
	items.add("2014 (v0.4)", swatch("legacy"))
	if last := hs.Timeline[len(hs.Timeline)-1]; last.Variant == scenario.LegacyOriginal.Name {
		items.add("2014, the original binary", swatch(last.Variant))
	}
	title := fmt.Sprintf("Removing the changes, newest first: %s %s", TimelineScenario, hs.TimelineSize)
	svg, pngData := render(vg.Points(820), vg.Points(60+230*float64(len(grid))), gridOf(title, grid, items), png)
	caption := "From left to right: today's manager, then one more change switched off at each step (newest first), " +
		"then the 2014 manager. Bars: one run each, median written above."
	return Chart{Name: TimelineChart, Title: title, Caption: caption, SVG: svg, PNG: pngData}, true
}
