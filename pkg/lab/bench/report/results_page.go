package report

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// ResultsFile is the compact results page written beside the report,
// short enough to commit (rcbench bench -publish=DIR copies it there).
const ResultsFile = "RESULTS.md"

// buildResults lays out the results page from the summary alone: when
// and where it ran, the ceiling, the headline figures, the findings and
// how many figures spread. chart, when set, is drawn under the headline;
// a sweep's page also has its cost-against-size chart, sweep, and its
// breaking points.
func buildResults(sum *results.Summary, chart, sweep *charts.Chart) *document {
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
		"(max−min)/median; ⚠ flags a spread of " + fmt.Sprintf("%.0f %%", results.NoisySpread*100) + " or more, explained under the " +
		"scenario's table in `report.md`. " + stats.Definition + " " + whoseText)
	if line := comparisonLine(sum); line != "" {
		d.p(line)
	}
	if t, ok := headlineTable(sum); ok {
		d.table(t)
	} else {
		d.p("None of the headline scenarios (scale-up, idle, two-managers, restart) ran.")
	}
	if chart != nil {
		d.figure(*chart)
	}
	originalsSection(d, sum)
	// Stack against stack, where a run holds both sides or ablations of
	// one: the fair fight's page is this section.
	if names, _ := stackSizes(sum); len(names) > 0 || len(findings.AblationRuns(sum)) > 0 {
		stacksSection(d, sum)
	}
	if sum.Options.Sweep {
		sweepSection(d, sum, sweep)
	}
	labSection(d, sum.Lab)
	profilesSection(d, sum.Profiles)
	d.h(2, "findings", "Findings")
	d.p("What the designs predict against what was measured; `report.md` gives the prediction and the figures of each. Every NO says why not.")
	d.table(verdictTable(sum.Findings))
	noisy, total := findings.NoisyFigures(sum)
	d.h(2, "noise", "Spread")
	if total == 0 {
		d.p("One run each: no spread to measure.")
	} else {
		d.p(fmt.Sprintf("%d of %d figures spread %.0f %% or more over their runs (every figure of every scenario, not only the "+
			"headline's); `report.md` names each and why it moves.", len(noisy), total, results.NoisySpread*100))
	}
	return d
}

// runFacts says when and where the benchmark ran.
func runFacts(sum *results.Summary) []string {
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

// verdictTable is each finding's one-line verdict, and for a NO why not.
func verdictTable(fs []results.Finding) table {
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
func headlineChart(sum *results.Summary, sets []charts.SizeCharts) *charts.Chart {
	sc, ok := sum.Scenario("scale-up")
	if !ok || len(sc.Sizes) == 0 {
		return nil
	}
	want := charts.Base(sc.Name, findings.LargestSize(sc).Label) + "_goroutines"
	for _, set := range sets {
		for i := range set.Charts {
			if set.Charts[i].Name == want {
				return &set.Charts[i]
			}
		}
	}
	return nil
}
