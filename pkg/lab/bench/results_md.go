package bench

import (
	"fmt"
	"strings"
)

// ResultsFile is the compact results page written beside the report,
// short enough to commit (rcbench bench -publish=DIR copies it there).
const ResultsFile = "RESULTS.md"

// headlineFigure is one figure of the results page's headline table.
type headlineFigure struct {
	scenario, figure string
	// label says what the figure is, for a reader who has not read the
	// scenario's table.
	label string
	// largestOnly keeps the figure at the scenario's largest size only.
	largestOnly bool
}

// headline lists the figures that carry the comparison, in the order the
// results page shows them.
var headline = []headlineFigure{
	{"scale-up", "peak_goroutines", "peak goroutines", false},
	{"scale-up", "time_to_running", "time to all running", false},
	{"scale-up", "peak_sockets", "peak sockets", true},
	{"scale-up", "peak_rss", "peak RSS", true},
	{"scale-up", "status_writes", "status writes", true},
	{"scale-up", "apiserver_cpu", "apiserver CPU from the controller's creation", true},
	{"idle", "requests_per_min", "requests a minute, every purpose (leader election included)", false},
	{"idle", "sync_requests_per_min", "of which the controllers' syncs", false},
	{"idle", "status_writes_per_min", "of which status writes", false},
	{"idle", "election_requests_per_min", "of which leader election (lease renewals)", false},
	{"idle", "events_per_min", "of which events", false},
	{"two-managers", "extra_pods", "extra pods", false},
	{"two-managers", "pod_deletes", "pod deletes", false},
	{"restart", "extra_pods", "extra pods", false},
	{"restart", "time_to_running", "time to all running", false},
}

// buildResults lays out the results page from the summary alone: when
// and where it ran, the ceiling, the headline figures, the findings and
// how many figures spread. chart, when set, is drawn under the headline;
// a sweep's page also has its cost-against-size chart, sweep, and its
// breaking points.
func buildResults(sum *Summary, chart, sweep *Chart) *document {
	d := &document{title: "kube-rewind benchmark results"}
	d.p("Written by `rcbench bench` (`make bench`) from its own figures, beside `report.md`, `report.html` and `results.json` " +
		"in `_output/bench/<time>/`; those hold every figure, chart and explanation. `make bench PUBLISH=examples/bench` copies " +
		"this page into the repository.")
	d.h(2, "run", "The run")
	d.list(runFacts(sum)...)
	for _, n := range sum.Notes {
		d.note(n)
	}
	if sum.Calibration != nil && len(sum.Calibration.Levels) > 0 {
		ceilingResults(d, sum.Calibration)
	}
	d.h(2, "headline", "Headline figures")
	d.p("Each cell: the median over the variant's runs, the lowest and highest run in brackets, then the spread " +
		"(max−min)/median; ⚠ flags a spread of " + fmt.Sprintf("%.0f %%", NoisySpread*100) + " or more, explained under the " +
		"scenario's table in `report.md`. " + whoseText)
	if t, ok := headlineTable(sum); ok {
		d.table(t)
	} else {
		d.p("None of the headline scenarios (scale-up, idle, two-managers, restart) ran.")
	}
	if chart != nil {
		d.figure(*chart)
	}
	originalsSection(d, sum)
	if sum.Options.Sweep {
		sweepSection(d, sum, sweep)
	}
	labSection(d, sum.Lab)
	profilesSection(d, sum.Profiles)
	d.h(2, "findings", "Findings")
	d.p("What the designs predict against what was measured; `report.md` gives the prediction and the figures of each. Every NO says why not.")
	d.table(verdictTable(sum.Findings))
	noisy, total := noisyFigures(sum)
	d.h(2, "noise", "Spread")
	if total == 0 {
		d.p("One run each: no spread to measure.")
	} else {
		d.p(fmt.Sprintf("%d of %d figures spread %.0f %% or more over their runs (every figure of every scenario, not only the "+
			"headline's); `report.md` names each and why it moves.", len(noisy), total, NoisySpread*100))
	}
	return d
}

// runFacts says when and where the benchmark ran.
func runFacts(sum *Summary) []string {
	m, commit := sum.Machine, sum.Commit
	if commit == "" {
		commit = "unknown (no build information; rcbench bench -commit names it)"
	}
	o := sum.Options
	facts := []string{
		"Started " + sum.Started.UTC().Format("2006-01-02 15:04 UTC") + "; the whole benchmark took " + durationText(sum.Seconds) + ".",
		"Commit: `" + commit + "`.",
		fmt.Sprintf("Machine: %d CPUs, %s/%s, %s. Load average (1, 5, 15 min) at the start %.2f %.2f %.2f, at the end %.2f %.2f %.2f.",
			m.CPUs, m.OS, m.Arch, m.GoVersion, m.LoadBefore[0], m.LoadBefore[1], m.LoadBefore[2], m.LoadAfter[0], m.LoadAfter[1], m.LoadAfter[2]),
		"Scenarios: " + strings.Join(o.Scenarios, ", ") + ".",
	}
	if len(o.Variants) > 0 {
		facts[len(facts)-1] += fmt.Sprintf(" Variants: %s. %d run(s) of each, alternating variants, each on a fresh cluster; hollow-node seed %d.",
			strings.Join(o.Variants, ", "), o.Runs, o.Seed)
	}
	var flags []string
	for _, f := range []struct {
		on   bool
		name string
	}{{o.Quick, "-quick"}, {o.Large, "-large"}, {o.Sweep, "-sweep"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	if len(flags) > 0 {
		facts = append(facts, "Flags: "+strings.Join(flags, " ")+" (not the standard sizes).")
	}
	if len(sum.Choices) > 0 {
		facts = append(facts, fmt.Sprintf("%d departure(s) from the scenarios' standard sizes or runs, to fit the time budget: %s.", len(sum.Choices), strings.Join(sum.Choices, "; ")))
	}
	if len(sum.Failures) > 0 {
		facts = append(facts, fmt.Sprintf("%d run(s) failed and are left out of the figures.", len(sum.Failures)))
	}
	if sum.Interrupted {
		facts = append(facts, "INTERRUPTED before the end: the figures are of the runs that finished.")
	}
	return facts
}

// ceilingResults is the calibration in brief: writes a second and p90
// per target and client count, and the apiserver's share of raw etcd.
func ceilingResults(d *document, cal *Calibration) {
	d.h(2, "ceiling", "The ceiling")
	t := table{header: []string{"target", "process", "clients", "writes/s", "p90 ms"}, numeric: []bool{false, false, true, true, true}}
	levels := sortedLevels(cal)
	for _, l := range levels {
		target, process := "raw etcd creates", "rcbench (an embedded etcd member)"
		if l.Target == "apiserver" {
			target, process = "apiserver pod POSTs", "apiserver"
		}
		t.rows = append(t.rows, []string{target, process, fmt.Sprint(l.Clients), formatNumber(l.PerSecond), formatNumber(l.P90Ms)})
	}
	d.table(t)
	var parts []string
	if e, ok := cal.Level("etcd", FloorClients); ok && e.PerSecond > 0 {
		if a, ok := cal.Level("apiserver", FloorClients); ok {
			parts = append(parts, fmt.Sprintf("At %d clients the apiserver writes %.0f %% as fast as raw etcd.", FloorClients, 100*a.PerSecond/e.PerSecond))
		}
	}
	if cal.CreateRate > 0 {
		parts = append(parts, fmt.Sprintf("Create floor: N pods take at least N / %s s (1 000 pods: %s s).", formatNumber(cal.CreateRate), formatNumber(cal.Floor(1000))))
	}
	if ref := cal.Reference; ref != nil {
		parts = append(parts, fmt.Sprintf("Manager-less reference scale-up of %d pods, the benchmark itself creating them from %d clients on a scale-up's cluster (as its pod watch saw them): %s.", ref.Replicas, FloorClients, referenceText(ref)))
	}
	if len(parts) > 0 {
		d.p(strings.Join(parts, " "))
	}
}

// headlineTable has one row per headline figure and size run, one column
// per variant; it is false when no headline figure was measured.
func headlineTable(sum *Summary) (table, bool) {
	variants := sum.Options.Variants
	t := table{header: append([]string{"scenario, size: figure", "process"}, variants...)}
	t.numeric = make([]bool, len(t.header))
	for i := 2; i < len(t.numeric); i++ {
		t.numeric[i] = true
	}
	eachHeadline(sum, func(sz *SizeSummary, h headlineFigure) {
		if row, ok := headlineRow(sz, variants, h); ok {
			t.rows = append(t.rows, row)
		}
	})
	return t, len(t.rows) > 0
}

// eachHeadline calls f with every headline figure at every size its
// scenario ran, in the order of the headline list, sizes ascending.
func eachHeadline(sum *Summary, f func(sz *SizeSummary, h headlineFigure)) {
	var scenarios []string
	for _, h := range headline {
		if len(scenarios) == 0 || scenarios[len(scenarios)-1] != h.scenario {
			scenarios = append(scenarios, h.scenario)
		}
	}
	for _, name := range scenarios {
		sc, ok := sum.Scenario(name)
		if !ok {
			continue
		}
		largest := largestSize(sc)
		for i := range sc.Sizes {
			sz := &sc.Sizes[i]
			for _, h := range headline {
				if h.scenario == name && (!h.largestOnly || sz == largest) {
					f(sz, h)
				}
			}
		}
	}
}

// headlineRow is one headline figure at one size, a cell per variant; it
// is false when no variant measured the figure.
func headlineRow(sz *SizeSummary, variants []string, h headlineFigure) ([]string, bool) {
	var proto Figure
	found := false
	cells := make([]string, len(variants))
	for j, name := range variants {
		cells[j] = "–"
		v, ok := sz.Variant(name)
		if !ok || v.Runs == 0 {
			continue
		}
		f, ok := v.Figure(h.figure)
		if !ok {
			continue
		}
		proto, found = f, true
		cells[j] = cellText(f.Stats)
		if f.Noisy {
			cells[j] += " ⚠"
		}
	}
	label := fmt.Sprintf("%s %s: %s", h.scenario, sz.Label, h.label)
	if proto.Unit != "" {
		label += " (" + proto.Unit + ")"
	}
	return append([]string{label, processName(proto.Process)}, cells...), found
}

// verdictTable is each finding's one-line verdict, and for a NO why not.
func verdictTable(fs []Finding) table {
	t := table{header: []string{"topic", "verdict", "why not"}, class: "findings"}
	for _, f := range fs {
		verdict, class := verdictCell(f)
		t.rows = append(t.rows, []string{f.Topic, verdict, f.Why})
		t.rowClass = append(t.rowClass, class)
	}
	return t
}

// headlineChart is the chart the results page draws: the controller-
// manager's goroutines during the largest scale-up, where the designs
// differ most at a glance.
func headlineChart(sum *Summary, charts []SizeCharts) *Chart {
	sc, ok := sum.Scenario("scale-up")
	if !ok || len(sc.Sizes) == 0 {
		return nil
	}
	want := chartBase(sc.Name, largestSize(sc).Label) + "_goroutines"
	for _, set := range charts {
		for i := range set.Charts {
			if set.Charts[i].Name == want {
				return &set.Charts[i]
			}
		}
	}
	return nil
}
