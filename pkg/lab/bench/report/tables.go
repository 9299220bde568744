package report

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// whoseText says whose process each kind of figure measures.
const whoseText = "Whose figures: each figure names its process in the tables' second column. apiserver is the apiserver " +
	"process, etcd embedded in it; controller-manager is every controller-manager process of the run, summed; hollow-node " +
	"is the one process that runs every hollow node; rcbench is the benchmark itself, whose pod watch and scrapes share the " +
	"machine; cluster is what the benchmark's pod watch saw (pod counts, times to a state). A request figure of the " +
	"controller-manager counts every request its processes sent — their controllers' syncs, status writes, leader " +
	"election (lease renewals) and events — and the requests_* figures (per minute in idle) split them by purpose."

// verdictCell is a finding's verdict in one line, yes or **NO** first
// where there was something to check, and the row's class: "no" for a
// finding that does not hold.
func verdictCell(f results.Finding) (verdict, class string) {
	verdict = "–"
	if f.Holds != nil {
		verdict = "yes"
		if !*f.Holds {
			verdict, class = "**NO**", "no"
		}
	}
	switch {
	case f.Verdict != "" && f.Holds == nil:
		verdict = f.Verdict
	case f.Verdict != "":
		verdict += ": " + f.Verdict
	}
	return verdict, class
}

// headerText is the report's first paragraph: when, where, on what and
// how loaded a machine the benchmark ran, and what it ran.
func headerText(sum *results.Summary) string {
	m := sum.Machine
	s := fmt.Sprintf("Run %s, %s, on %d CPUs (%s/%s, %s). Load average before %.2f %.2f %.2f, after %.2f %.2f %.2f. ",
		sum.Started.UTC().Format("2006-01-02 15:04 UTC"), durationText(sum.Seconds), m.CPUs, m.OS, m.Arch, m.GoVersion,
		m.LoadBefore[0], m.LoadBefore[1], m.LoadBefore[2], m.LoadAfter[0], m.LoadAfter[1], m.LoadAfter[2])
	if sum.Commit != "" {
		s += fmt.Sprintf("Commit %s. ", sum.Commit)
	}
	if m.FileLimit > 0 {
		s += fmt.Sprintf("Open-file limit of the cluster's processes: %s. ", results.FormatNumber(float64(m.FileLimit)))
	}
	o := sum.Options
	s += fmt.Sprintf("Scenarios: %s. Variants: %s. %d run(s) of each, alternating variants, each on a fresh cluster; hollow-node seed %d.",
		strings.Join(o.Scenarios, ", "), strings.Join(o.Variants, ", "), o.Runs, o.Seed)
	if o.Sweep {
		s += " A sweep over sizes (-sweep)."
	}
	if o.Quick {
		s += " Quick sizes (-quick)."
	}
	if o.Large {
		s += " Large sizes included (-large)."
	}
	if sum.Interrupted {
		s += " INTERRUPTED before the end."
	}
	return s
}

func durationText(seconds float64) string {
	if seconds < 120 {
		return fmt.Sprintf("%.0f s", seconds)
	}
	return fmt.Sprintf("%.0f min %02.0f s", float64(int(seconds)/60), float64(int(seconds)%60))
}

func sizeLine(sz results.SizeSummary) string {
	var parts []string
	if sz.Replicas > 0 {
		parts = append(parts, fmt.Sprintf("%d replicas", sz.Replicas))
	}
	if sz.Controllers > 0 {
		parts = append(parts, fmt.Sprintf("%d controllers", sz.Controllers))
	}
	parts = append(parts, fmt.Sprintf("sync period %.0f s", sz.PeriodSeconds))
	if sz.WindowSeconds > 0 {
		parts = append(parts, fmt.Sprintf("window %.0f s", sz.WindowSeconds))
	}
	if sz.Rate > 0 {
		parts = append(parts, fmt.Sprintf("rate %s/s", results.FormatNumber(sz.Rate)))
	}
	var runs []string
	for _, v := range sz.Variants {
		r := fmt.Sprintf("%s %d", v.Variant, v.Runs)
		if v.Failed > 0 {
			r += fmt.Sprintf(" (+%d failed)", v.Failed)
		}
		runs = append(runs, r)
	}
	return "Size: " + strings.Join(parts, ", ") + ". Runs: " + strings.Join(runs, ", ") + "."
}

// figureTable writes one row per figure and one column per variant; each
// cell holds the median, the range and the spread, and a flag whose
// explanation follows the table.
func figureTable(d *document, sz results.SizeSummary) {
	t := table{header: []string{"figure", "process"}, numeric: []bool{false, false}}
	for _, v := range sz.Variants {
		t.header = append(t.header, v.Variant)
		t.numeric = append(t.numeric, true)
	}
	var order []results.Figure
	seen := map[string]bool{}
	for _, v := range sz.Variants {
		for _, f := range v.Figures {
			if !seen[f.Name] {
				seen[f.Name] = true
				order = append(order, f)
			}
		}
	}
	var notes []string
	for _, proto := range order {
		name := proto.Name
		if proto.Unit != "" {
			name += " (" + proto.Unit + ")"
		}
		if proto.Derived {
			name += " †"
		}
		row := []string{name, processName(proto.Process)}
		for _, v := range sz.Variants {
			f, ok := v.Figure(proto.Name)
			if !ok {
				row = append(row, "–")
				continue
			}
			cell := cellText(f.Stats)
			if f.Noisy {
				notes = append(notes, fmt.Sprintf("%s, %s: spread %s — %s.", v.Variant, proto.Name, results.FormatSpread(f.Stats), f.Explanation))
				cell += fmt.Sprintf(" ⚠%d", len(notes))
			}
			row = append(row, cell)
		}
		t.rows = append(t.rows, row)
	}
	row := []string{"run time (s)", "cluster"}
	for _, v := range sz.Variants {
		if len(v.RunSeconds.Values) == 0 {
			row = append(row, "–")
			continue
		}
		row = append(row, cellText(v.RunSeconds))
	}
	t.rows = append(t.rows, row)
	d.table(t)
	for i, n := range notes {
		d.p(fmt.Sprintf("⚠%d %s", i+1, n))
	}
	var derivedNotes []string
	for _, f := range order {
		if f.Derived {
			derivedNotes = append(derivedNotes, fmt.Sprintf("`%s`: %s", f.Name, derivedText(f.Name)))
		}
	}
	if len(derivedNotes) > 0 {
		d.p("† computed by the benchmark from the samples: " + strings.Join(derivedNotes, "; ") + ".")
	}
}

// processName is how the tables name whose figure it is.
func processName(p string) string {
	if p == "" {
		return "cluster"
	}
	return p
}

// derivedText says what a figure of the benchmark's own counts.
func derivedText(name string) string {
	switch name {
	case results.TimeToCreate:
		return "seconds from the controller's creation until the pod watch has seen all N pods created"
	case results.PurposeFigures[sampler.PurposeSync]:
		return "the controller-manager's requests for its controllers' work over the whole run (lists, watches, pod creates and deletes, endpoints)"
	case results.PurposeFigures[sampler.PurposeStatus]:
		return "its writes of a replication controller (the modern manager's status)"
	case results.PurposeFigures[sampler.PurposeElection]:
		return "its leader election's requests (lease renewals)"
	case results.SelfCPUFigure:
		return "the CPU the benchmark process itself used while sampling the run (its pod watch, its scrapes, the scenario's requests)"
	case results.PurposeFigures[sampler.PurposeEvents]:
		return "its requests on events, which the 2014 API has no resource for: our managers record none, and upstream's stop at its adapter, which counts them (upstream_adapter_events_total): counted to show they are none; on today's stack kube-controller-manager records its events as a real cluster does, and they are counted"
	}
	return ""
}

// cellText is "median (min–max) spread".
func cellText(st results.Stats) string {
	switch {
	case len(st.Values) < 2:
		return results.FormatNumber(st.Median)
	case st.Min == st.Max:
		return results.FormatNumber(st.Median) + " (all runs)"
	}
	return fmt.Sprintf("%s (%s–%s) %s", results.FormatNumber(st.Median), results.FormatNumber(st.Min), results.FormatNumber(st.Max), results.FormatSpread(st))
}

// failuresNote lists the runs that failed, which the figures leave out.
func failuresNote(d *document, failures []results.Failure) {
	if len(failures) == 0 {
		return
	}
	var items []string
	for _, f := range failures {
		items = append(items, fmt.Sprintf("%s %s %s run %d: %s", f.Scenario, f.Size, f.Variant, f.Run, f.Error))
	}
	d.note(fmt.Sprintf("%d runs failed and are left out of the figures:", len(failures)))
	d.list(items...)
}
