package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// etcdPublished is etcd's own v2.2.0 write benchmark (3 members, SSD,
// n1-highcpu-2, leader only), the table the calibration mirrors.
var etcdPublished = map[int][2]float64{1: {55, 24.5}, 64: {2139, 35.2}, 256: {4581, 70.5}}

func calibrationSection(d *document, cal *results.Calibration, chart *charts.Chart) {
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
				pub = fmt.Sprintf("%s, %s", results.FormatNumber(v[0]), results.FormatNumber(v[1]))
			}
		}
		t.rows = append(t.rows, []string{l.Target, fmt.Sprint(l.Clients), results.FormatNumber(l.PerSecond), results.FormatNumber(l.P50Ms),
			results.FormatNumber(l.P90Ms), results.FormatNumber(l.P99Ms), fmt.Sprint(l.Requests), fmt.Sprint(l.Errors), pub})
	}
	d.table(t)
	if cal.CreateRate > 0 {
		d.p(fmt.Sprintf("Calibrated create floor: %s pod POSTs per second at %d clients, so no design can create N pods in less than "+
			"N / %s seconds (100 pods: %s s; 1 000 pods: %s s; 10 000 pods: %s s). It counts creates alone; a scale-up also waits for the hollow "+
			"nodes to bind and start every pod, so the findings compare it with the manager-less reference instead.",
			results.FormatNumber(cal.CreateRate), results.FloorClients, results.FormatNumber(cal.CreateRate), results.FormatNumber(cal.Floor(100)),
			results.FormatNumber(cal.Floor(1000)), results.FormatNumber(cal.Floor(10000))))
	}
	if ref := cal.Reference; ref != nil {
		d.p(fmt.Sprintf("Manager-less reference scale-up of %d pods: %s. %s", ref.Replicas, findings.ReferenceText(ref), cal.ReferenceSetup))
	}
	if len(cal.ListCosts) > 0 {
		d.p("What a read costs: one LIST of every pod, read as v0.4 read pods (the apiserver's default) and as stored " +
			"(-read_pod_status=false). Setup: " + cal.ListSetup)
		lt := table{header: []string{"read path", "pods", "LISTs", "p50 ms", "max ms", "KB per answer", "apiserver CPU ms", "MB allocated", "objects allocated", "loopback requests"},
			numeric: []bool{false, true, true, true, true, true, true, true, true, true}}
		for _, l := range cal.ListCosts {
			lt.rows = append(lt.rows, []string{l.ReadPath, fmt.Sprint(l.Pods), fmt.Sprint(l.Lists), results.FormatNumber(l.P50Ms), results.FormatNumber(l.MaxMs),
				results.FormatNumber(float64(l.Bytes) / 1024), results.FormatNumber(l.CPUMs), results.FormatNumber(l.AllocBytes / 1e6), results.FormatNumber(l.Allocs), results.FormatNumber(l.LoopbackRequests)})
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

// sortedLevels are the calibration's levels, raw etcd first, then by
// client count.
func sortedLevels(cal *results.Calibration) []results.Level {
	levels := append([]results.Level(nil), cal.Levels...)
	rank := map[string]int{results.TargetEtcd: 0, results.TargetAPIServer: 1, results.TargetLearner: 2}
	sort.SliceStable(levels, func(i, j int) bool {
		if levels[i].Target != levels[j].Target {
			return rank[levels[i].Target] < rank[levels[j].Target]
		}
		return levels[i].Clients < levels[j].Clients
	})
	return levels
}

// ceilingResults is the calibration in brief: writes a second and p90
// per target and client count, and the apiserver's share of raw etcd.
func ceilingResults(d *document, cal *results.Calibration) {
	d.h(2, "ceiling", "The ceiling")
	t := table{header: []string{"target", "process", "clients", "writes/s", "p90 ms"}, numeric: []bool{false, false, true, true, true}}
	levels := sortedLevels(cal)
	for _, l := range levels {
		target, process := "raw etcd creates", "rcbench (an embedded etcd member)"
		switch l.Target {
		case results.TargetAPIServer:
			target, process = "apiserver pod POSTs", "apiserver"
		case results.TargetLearner:
			target, process = "apiserver pod POSTs, the laboratory's learner joined", "apiserver"
		}
		t.rows = append(t.rows, []string{target, process, fmt.Sprint(l.Clients), results.FormatNumber(l.PerSecond), results.FormatNumber(l.P90Ms)})
	}
	d.table(t)
	var parts []string
	if e, ok := cal.Level("etcd", results.FloorClients); ok && e.PerSecond > 0 {
		if a, ok := cal.Level("apiserver", results.FloorClients); ok {
			parts = append(parts, fmt.Sprintf("At %d clients the apiserver writes %.0f %% as fast as raw etcd.", results.FloorClients, 100*a.PerSecond/e.PerSecond))
		}
	}
	if price, with, without, ok := cal.LearnerPrice(); ok {
		parts = append(parts, "The laboratory's learner "+findings.LearnerPriceText(price, with, without)+".")
	}
	if median, lowest, highest, ok := cal.WALKept(); ok {
		how := "alternating pairs"
		if cal.WALPairsInOneLife {
			how = "pairs inside one apiserver's life, in alternating order"
		}
		bar, n := results.WALKeepsAtLeast, len(cal.WALPairs)
		// The verdict's interval: the pairs' range, or, where there are
		// enough pairs, the k-th lowest to the k-th highest. The bar is
		// met or missed only where the whole interval says so.
		lo, hi, k, conf, _ := cal.WALKeptInterval()
		interval := fmt.Sprintf("the pairs' range, which holds the true median with %.0f %% confidence,", 100*conf)
		if k > 1 {
			interval = fmt.Sprintf("the interval from the %s lowest pair to the %s highest, %.0f %% to %.0f %%, which holds the true median with %.0f %% confidence,",
				ordinal(k), ordinal(k), 100*lo, 100*hi, 100*conf)
		}
		verdict := fmt.Sprintf("**not told apart from** the %.0f %% it must keep: %s spans it", 100*bar, interval)
		switch {
		case lo >= bar:
			verdict = fmt.Sprintf("at least the %.0f %% it must keep: %s lies above it", 100*bar, interval)
		case hi < bar:
			verdict = fmt.Sprintf("**less than** the %.0f %% it must keep: %s lies below it", 100*bar, interval)
		}
		parts = append(parts, fmt.Sprintf("The laboratory's reader of the write-ahead log keeps %.0f %% of the bare apiserver's creates at %d "+
			"clients (the median of %d %s, from %.0f %% to %.0f %%): %s.",
			100*median, results.FloorClients, n, how, 100*lowest, 100*highest, verdict))
		if cal.WALPairsInOneLife {
			parts = append(parts, fmt.Sprintf("Stopped for the levels without it, the reader's process used at most %.2f CPU s over one of them.", cal.WALReaderStoppedCPU()))
		}
		if core, latest, behind, n, ok := cal.WALReader(); ok {
			caught := fmt.Sprintf("held the last pod created at most %.0f ms after each load ended", 1000*latest)
			if behind > 0 {
				caught = fmt.Sprintf("**did not hold the last pod created %s after %d of its %d loads**", results.ReaderWait, behind, n)
			}
			spent := ""
			if read, apply, rest, ok := cal.WALReaderSplit(); ok {
				spent = fmt.Sprintf(": %.0f %% of that reading the log (its system calls and decoding), %.0f %% applying it to its own store, and %.0f %% the rest (serving, garbage collection, the runtime)", 100*read, 100*apply, 100*rest)
			}
			parts = append(parts, fmt.Sprintf("Over each load with it, from its start until it had caught up, the reader used a median %.0f %% of one core (its process's CPU)%s; it %s.", 100*core, spent, caught))
		}
	}
	if cal.CreateRate > 0 {
		parts = append(parts, fmt.Sprintf("Create floor: N pods take at least N / %s s (1 000 pods: %s s).", results.FormatNumber(cal.CreateRate), results.FormatNumber(cal.Floor(1000))))
	}
	if ref := cal.Reference; ref != nil {
		parts = append(parts, fmt.Sprintf("Manager-less reference scale-up of %d pods, the benchmark itself creating them from %d clients on a scale-up's cluster (as its pod watch saw them): %s.", ref.Replicas, results.FloorClients, findings.ReferenceText(ref)))
	}
	if len(parts) > 0 {
		d.p(strings.Join(parts, " "))
	}
}

// ordinal writes k as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(k int) string {
	suffix := "th"
	switch {
	case k%100 >= 11 && k%100 <= 13:
	case k%10 == 1:
		suffix = "st"
	case k%10 == 2:
		suffix = "nd"
	case k%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", k, suffix)
}
