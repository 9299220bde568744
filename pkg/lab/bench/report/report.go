package report

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// buildDocument lays out the report: header, findings, calibration, then
// each scenario with its tables and charts, and how to read it all.
func buildDocument(sum *results.Summary, cal *charts.Chart, sets []charts.SizeCharts) *document {
	d := &document{title: "kube-rewind benchmark: old against new"}
	d.p(headerText(sum))
	for _, n := range sum.Notes {
		d.note(n)
	}
	if len(sum.Choices) > 0 {
		d.p("To finish within its time budget, this default run departs from some scenarios' standard sizes or runs " +
			"(name the scenarios with -scenarios, or set -runs, to run them in full):")
		d.list(sum.Choices...)
	}
	failuresNote(d, sum.Failures)

	d.h(2, "design-alone", "The design alone")
	d.p(designAloneText)
	d.h(2, "findings", "Findings")
	d.p("What the two designs predict, against what these runs measured: the verdict in one line first, then the prediction and " +
		"the figures. Medians over the runs, with the lowest and highest run in brackets. Every NO says why under its figures.")
	d.table(findingsTable(sum.Findings))
	d.p(whoseText)
	originalsSection(d, sum)
	stacksSection(d, sum)

	if sum.Options.Sweep {
		sweepSection(d, sum, sweepChartOf(sets))
	}

	labSection(d, sum.Lab)
	profilesSection(d, sum.Profiles)

	if sum.Calibration != nil {
		calibrationSection(d, sum.Calibration, cal)
	}

	for _, sc := range sum.Scenarios {
		d.h(2, sc.Name, fmt.Sprintf("%s: %s", sc.Name, sc.Title))
		d.p("Reproduces " + sc.Reproduces + ".")
		d.p(sc.Explain)
		for _, sz := range findings.DesignAlone(sc.Sizes) {
			d.h(3, charts.Base(sc.Name, sz.Label), fmt.Sprintf("%s %s", sc.Name, sz.Label))
			d.p(sizeLine(sz))
			figureTable(d, sz)
			for _, set := range sets {
				if set.Scenario == sc.Name && set.Size == sz.Label {
					for _, c := range set.Charts {
						d.figure(c)
					}
				}
			}
		}
	}
	readingSection(d)
	return d
}

// findingsTable lays the findings out with a one-line verdict first and
// every NO marked, and explained after its figures.
func findingsTable(fs []results.Finding) table {
	t := table{header: []string{"topic", "verdict", "expected", "measured"}, class: "findings"}
	for _, f := range fs {
		verdict, class := verdictCell(f)
		measured := f.Measured
		if f.Why != "" {
			measured += " **Why not:** " + f.Why
		}
		t.rows = append(t.rows, []string{f.Topic, verdict, f.Expect, measured})
		t.rowClass = append(t.rowClass, class)
	}
	return t
}

func readingSection(d *document) {
	d.h(2, "reading", "How to read this report")
	d.list(
		"Every cell is the median over the runs of that variant, then the lowest and highest run in brackets, then the spread (max−min)/median. A single run shows its value alone.",
		stats.Definition,
		fmt.Sprintf("⚠ flags a spread of %.0f %% or more; the note under the table says why that figure varies. A spread next to a median of 0 means nothing and is shown as n/a.", results.NoisySpread*100),
		"legacy is the 2014 controller-manager; modern is today's design with kube-controller-manager's client limit (20 QPS, burst 30); modern-unthrottled is the same binary with no client limit, to tell the design from the throttle.",
		"Each run starts a fresh cluster (apiserver with embedded etcd, hollow nodes, controller-manager) in its own directory; variants alternate run by run so that a slow spell of the machine is shared out.",
		"Time charts draw the median run of each variant (by the scenario's first figure), in seconds since the scenario's first action.",
		"`results.json` holds every figure with its values, min, median, max and spread; `bench.txt` is the same per run in Go benchmark format (`benchstat bench.txt`), and `bench.<variant>.txt` one variant's runs with the variant left out of the names, so that `benchstat bench.legacy.txt bench.modern.txt` sets the designs side by side; `runs/<run>/samples.csv` holds every raw sample of a run (series, seconds, value; marks as `mark.<name>`), beside the components' logs.",
	)
}

// sweepChartOf finds the sweep's chart among the report's, or nil.
func sweepChartOf(sets []charts.SizeCharts) *charts.Chart {
	for i := range sets {
		if sets[i].Scenario == charts.SweepSet && len(sets[i].Charts) > 0 {
			return &sets[i].Charts[0]
		}
	}
	return nil
}
