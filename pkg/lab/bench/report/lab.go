package report

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// labSection writes the laboratory's share of every run.
func labSection(d *document, runs []results.LabRun) {
	if len(runs) == 0 {
		return
	}
	d.h(2, "laboratory", "The laboratory's share")
	saturated := 0
	for _, r := range runs {
		if r.Saturated != "" {
			saturated++
		}
	}
	d.p(fmt.Sprintf("What the laboratory cost in each run and whether it kept up: hollow-node is the one process that "+
		"stands in for the 2014 scheduler and kubelets, rcbench the benchmark itself (its pod watch and scrapes). CPU over the "+
		"whole run, with the share of the run spent at a full core; lists of every pod after the first (in brackets: after a "+
		"watch fell out of etcd's window of 1000 events); the hollow nodes' work waiting at the end, and the most etcd "+
		"indexes their pod watch ran behind their own writes. A run is saturated when either process used a full core for "+
		"half of it or more, or when either pod watch fell out of etcd's window: it measured the laboratory as much as the "+
		"design, and a sweep does not count its failure as the design's breaking point. On today's stack KWOK and kube-scheduler "+
		"play the nodes: their CPU is summed in the first column, the busier of the two gives its share, and the hollow nodes' "+
		"own counters, which they have no counterpart of, are marked –. %d of %d runs here were saturated.",
		saturated, len(runs)))
	t := table{header: []string{"run", "hollow-node CPU", "rcbench CPU", "relists hollow-node", "relists rcbench", "waiting at end", "watch lag", "laboratory"},
		numeric: []bool{false, true, true, true, true, true, true, false}}
	for _, r := range runs {
		name := fmt.Sprintf("%s %s %s #%d", r.Scenario, r.Size, r.Variant, r.Run)
		if r.Failed {
			name += " (failed)"
		}
		verdict := "kept up"
		if r.Saturated != "" {
			verdict = "saturated: " + r.Saturated
		}
		nodes := fmt.Sprintf("%s CPU s (%.0f %% busy)", results.FormatNumber(r.HollowCPU), 100*r.HollowBusy)
		relists := fmt.Sprintf("%s (%s)", results.FormatNumber(r.HollowRelists), results.FormatNumber(r.HollowExpired))
		queue, lag := results.FormatNumber(r.QueueEnd), results.FormatNumber(r.WatchLag)
		if r.Nodes != "" {
			nodes += " " + r.Nodes
			relists, queue, lag = "–", "–", "–"
		}
		t.rows = append(t.rows, []string{name, nodes,
			fmt.Sprintf("%s CPU s (%.0f %% busy)", results.FormatNumber(r.RcbenchCPU), 100*r.RcbenchBusy),
			relists,
			fmt.Sprintf("%s (%s)", results.FormatNumber(r.RcbenchRelists), results.FormatNumber(r.RcbenchExpired)),
			queue, lag, verdict})
	}
	d.table(t)
}
