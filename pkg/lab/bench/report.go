package bench

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// etcdPublished is etcd's own v2.2.0 write benchmark (3 members, SSD,
// n1-highcpu-2, leader only), the table the calibration mirrors.
var etcdPublished = map[int][2]float64{1: {55, 24.5}, 64: {2139, 35.2}, 256: {4581, 70.5}}

// buildDocument lays out the report: header, findings, calibration, then
// each scenario with its tables and charts, and how to read it all.
func buildDocument(sum *Summary, cal *Chart, charts []SizeCharts) *document {
	d := &document{title: "kube-rewind benchmark: old against new"}
	d.p(header(sum))
	for _, n := range sum.Notes {
		d.note(n)
	}
	if len(sum.Choices) > 0 {
		d.p("To finish within its time budget, this default run departs from some scenarios' standard sizes or runs " +
			"(name the scenarios with -scenarios, or set -runs, to run them in full):")
		d.list(sum.Choices...)
	}
	failuresNote(d, sum.Failures)

	d.h(2, "findings", "Findings")
	d.p("What the two designs predict, against what these runs measured: the verdict in one line first, then the prediction and " +
		"the figures. Medians over the runs, with the lowest and highest run in brackets. Every NO says why under its figures.")
	d.table(findingsTable(sum.Findings))
	d.p(whoseText)
	originalsSection(d, sum)

	if sum.Options.Sweep {
		sweepSection(d, sum, sweepChartOf(charts))
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
		for _, sz := range sc.Sizes {
			d.h(3, chartBase(sc.Name, sz.Label), fmt.Sprintf("%s %s", sc.Name, sz.Label))
			d.p(sizeLine(sz))
			figureTable(d, sz)
			for _, set := range charts {
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

// whoseText says whose process each kind of figure measures.
const whoseText = "Whose figures: each figure names its process in the tables' second column. apiserver is the apiserver " +
	"process, etcd embedded in it; controller-manager is every controller-manager process of the run, summed; hollow-node " +
	"is the one process that runs every hollow node; rcbench is the benchmark itself, whose pod watch and scrapes share the " +
	"machine; cluster is what the benchmark's pod watch saw (pod counts, times to a state). A request figure of the " +
	"controller-manager counts every request its processes sent — their controllers' syncs, status writes, leader " +
	"election (lease renewals) and events — and the requests_* figures (per minute in idle) split them by purpose."

// findingsTable lays the findings out with a one-line verdict first and
// every NO marked, and explained after its figures.
func findingsTable(fs []Finding) table {
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

// verdictCell is a finding's verdict in one line, yes or **NO** first
// where there was something to check, and the row's class: "no" for a
// finding that does not hold.
func verdictCell(f Finding) (verdict, class string) {
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

func header(sum *Summary) string {
	m := sum.Machine
	s := fmt.Sprintf("Run %s, %s, on %d CPUs (%s/%s, %s). Load average before %.2f %.2f %.2f, after %.2f %.2f %.2f. ",
		sum.Started.UTC().Format("2006-01-02 15:04 UTC"), durationText(sum.Seconds), m.CPUs, m.OS, m.Arch, m.GoVersion,
		m.LoadBefore[0], m.LoadBefore[1], m.LoadBefore[2], m.LoadAfter[0], m.LoadAfter[1], m.LoadAfter[2])
	if sum.Commit != "" {
		s += fmt.Sprintf("Commit %s. ", sum.Commit)
	}
	if m.FileLimit > 0 {
		s += fmt.Sprintf("Open-file limit of the cluster's processes: %s. ", formatNumber(float64(m.FileLimit)))
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

func sizeLine(sz SizeSummary) string {
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
		parts = append(parts, fmt.Sprintf("rate %s/s", formatNumber(sz.Rate)))
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
func figureTable(d *document, sz SizeSummary) {
	t := table{header: []string{"figure", "process"}, numeric: []bool{false, false}}
	for _, v := range sz.Variants {
		t.header = append(t.header, v.Variant)
		t.numeric = append(t.numeric, true)
	}
	var order []Figure
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
				notes = append(notes, fmt.Sprintf("%s, %s: spread %s — %s.", v.Variant, proto.Name, formatSpread(f.Stats), f.Explanation))
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
	case TimeToCreate:
		return "seconds from the controller's creation until the pod watch has seen all N pods created"
	case purposeFigures[sampler.PurposeSync]:
		return "the controller-manager's requests for its controllers' work over the whole run (lists, watches, pod creates and deletes, endpoints)"
	case purposeFigures[sampler.PurposeStatus]:
		return "its writes of a replication controller (the modern manager's status)"
	case purposeFigures[sampler.PurposeElection]:
		return "its leader election's requests (lease renewals)"
	case SelfCPUFigure:
		return "the CPU the benchmark process itself used while sampling the run (its pod watch, its scrapes, the scenario's requests)"
	case purposeFigures[sampler.PurposeEvents]:
		return "its requests on events, which the 2014 API has no resource for: our managers record none, and upstream's stop at its adapter, which counts them (upstream_adapter_events_total): counted to show they are none"
	}
	return ""
}

// cellText is "median (min–max) spread".
func cellText(st Stats) string {
	switch {
	case len(st.Values) < 2:
		return formatNumber(st.Median)
	case st.Min == st.Max:
		return formatNumber(st.Median) + " (all runs)"
	}
	return fmt.Sprintf("%s (%s–%s) %s", formatNumber(st.Median), formatNumber(st.Min), formatNumber(st.Max), formatSpread(st))
}

func calibrationSection(d *document, cal *Calibration, chart *Chart) {
	d.h(2, "calibrate", "calibrate: the stack's ceiling")
	d.p("Before any scenario, the benchmark measures how fast this machine can write: raw etcd first, then the apiserver's " +
		"pod-create path, at 1, 64 and 256 concurrent clients, mirroring etcd's own v2 benchmark table. Each level runs " +
		"for a few seconds after a warm-up of half a second on fresh storage; only requests that start and end inside the " +
		"measured window count.")
	d.p("etcd: " + cal.EtcdSetup)
	d.p("apiserver: " + cal.APIServerSetup)
	t := table{header: []string{"target", "clients", "writes/s", "p50 ms", "p90 ms", "p99 ms", "requests", "errors", "etcd v2.2 published: writes/s, p90 ms"},
		numeric: []bool{false, true, true, true, true, true, true, true, false}}
	levels := sortedLevels(cal)
	for _, l := range levels {
		pub := ""
		if l.Target == "etcd" {
			if v, ok := etcdPublished[l.Clients]; ok {
				pub = fmt.Sprintf("%s, %s", formatNumber(v[0]), formatNumber(v[1]))
			}
		}
		t.rows = append(t.rows, []string{l.Target, fmt.Sprint(l.Clients), formatNumber(l.PerSecond), formatNumber(l.P50Ms),
			formatNumber(l.P90Ms), formatNumber(l.P99Ms), fmt.Sprint(l.Requests), fmt.Sprint(l.Errors), pub})
	}
	d.table(t)
	if cal.CreateRate > 0 {
		d.p(fmt.Sprintf("Calibrated create floor: %s pod POSTs per second at %d clients, so no design can create N pods in less than "+
			"N / %s seconds (100 pods: %s s; 1 000 pods: %s s; 10 000 pods: %s s). It counts creates alone; a scale-up also waits for the hollow "+
			"nodes to bind and start every pod, so the findings compare it with the manager-less reference instead.",
			formatNumber(cal.CreateRate), FloorClients, formatNumber(cal.CreateRate), formatNumber(cal.Floor(100)),
			formatNumber(cal.Floor(1000)), formatNumber(cal.Floor(10000))))
	}
	if ref := cal.Reference; ref != nil {
		d.p(fmt.Sprintf("Manager-less reference scale-up of %d pods: %s. %s", ref.Replicas, referenceText(ref), cal.ReferenceSetup))
	}
	if len(cal.ListCosts) > 0 {
		d.p("What a read costs: one LIST of every pod, read as v0.4 read pods (the apiserver's default) and as stored " +
			"(-read_pod_status=false). Setup: " + cal.ListSetup)
		lt := table{header: []string{"read path", "pods", "LISTs", "p50 ms", "max ms", "KB per answer", "apiserver CPU ms", "MB allocated", "objects allocated", "loopback requests"},
			numeric: []bool{false, true, true, true, true, true, true, true, true, true}}
		for _, l := range cal.ListCosts {
			lt.rows = append(lt.rows, []string{l.ReadPath, fmt.Sprint(l.Pods), fmt.Sprint(l.Lists), formatNumber(l.P50Ms), formatNumber(l.MaxMs),
				formatNumber(float64(l.Bytes) / 1024), formatNumber(l.CPUMs), formatNumber(l.AllocBytes / 1e6), formatNumber(l.Allocs), formatNumber(l.LoopbackRequests)})
		}
		d.table(lt)
	}
	for _, l := range cal.Levels {
		if l.Errors > 0 {
			d.note(fmt.Sprintf("%s at %d clients: %d requests failed; the first: %s", l.Target, l.Clients, l.Errors, l.FirstError))
		}
	}
	if chart != nil {
		d.figure(*chart)
	}
}

func readingSection(d *document) {
	d.h(2, "reading", "How to read this report")
	d.list(
		"Every cell is the median over the runs of that variant, then the lowest and highest run in brackets, then the spread (max−min)/median. A single run shows its value alone.",
		fmt.Sprintf("⚠ flags a spread of %.0f %% or more; the note under the table says why that figure varies. A spread next to a median of 0 means nothing and is shown as n/a.", NoisySpread*100),
		"legacy is the 2014 controller-manager; modern is today's design with kube-controller-manager's client limit (20 QPS, burst 30); modern-unthrottled is the same binary with no client limit, to tell the design from the throttle.",
		"Each run starts a fresh cluster (apiserver with embedded etcd, hollow nodes, controller-manager) in its own directory; variants alternate run by run so that a slow spell of the machine is shared out.",
		"Time charts draw the median run of each variant (by the scenario's first figure), in seconds since the scenario's first action.",
		"`results.json` holds every figure with its values, min, median, max and spread; `bench.txt` is the same per run in Go benchmark format (`benchstat bench.txt`), and `bench.<variant>.txt` one variant's runs with the variant left out of the names, so that `benchstat bench.legacy.txt bench.modern.txt` sets the designs side by side; `runs/<run>/samples.csv` holds every raw sample of a run (series, seconds, value; marks as `mark.<name>`), beside the components' logs.",
	)
}

// sweepChartOf finds the sweep's chart among the report's, or nil.
func sweepChartOf(charts []SizeCharts) *Chart {
	for i := range charts {
		if charts[i].Scenario == sweepChartSet && len(charts[i].Charts) > 0 {
			return &charts[i].Charts[0]
		}
	}
	return nil
}

// sortedLevels are the calibration's levels, raw etcd first, then by
// client count.
func sortedLevels(cal *Calibration) []Level {
	levels := append([]Level(nil), cal.Levels...)
	sort.SliceStable(levels, func(i, j int) bool {
		if levels[i].Target != levels[j].Target {
			return levels[i].Target == "etcd"
		}
		return levels[i].Clients < levels[j].Clients
	})
	return levels
}

// failuresNote lists the runs that failed, which the figures leave out.
func failuresNote(d *document, failures []Failure) {
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
