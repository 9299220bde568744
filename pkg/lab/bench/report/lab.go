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
	saturated, learners, logs := 0, 0, 0
	for _, r := range runs {
		if r.Saturated != "" {
			saturated++
		}
		switch r.Reader {
		case results.ReaderLearner:
			learners++
		case results.ReaderWAL:
			logs++
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
		"own counters, which they have no counterpart of, are marked –; where the benchmark watches kube-apiserver "+
		"(-lab_reader=apiserver-watch; by default it reads etcd's log there too), kube-apiserver ends a watch that does not "+
		"take its events in time, and one taken up again where it ended is counted as taken up, not listed (in brackets there: "+
		"its version gone from the apiserver's watch cache, 410). %d of %d runs here were saturated.",
		saturated, len(runs)))
	d.p(learnerNote(learners, logs, len(runs)))
	t := table{header: []string{"run", "hollow-node CPU", "rcbench CPU", "reader CPU, learner or log (share of the run)", "relists hollow-node", "relists rcbench", "waiting at end", "watch lag", "laboratory"},
		numeric: []bool{false, true, true, true, true, true, true, true, false}}
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
		own := fmt.Sprintf("%s (%s)", results.FormatNumber(r.RcbenchRelists), results.FormatNumber(r.RcbenchExpired))
		if r.Nodes != "" {
			nodes += " " + r.Nodes
			relists, queue, lag = "–", "–", "–"
			if r.RcbenchResumes > 0 {
				own += fmt.Sprintf(", %s taken up", results.FormatNumber(r.RcbenchResumes))
			}
		}
		t.rows = append(t.rows, []string{name, nodes,
			fmt.Sprintf("%s CPU s (%.0f %% busy)", results.FormatNumber(r.RcbenchCPU), 100*r.RcbenchBusy),
			learnerCell(r.LabShare),
			relists,
			own, queue, lag, verdict})
	}
	d.table(t)
}

// learnerNote says what the laboratory's readers cost on the page, what
// is measured and what is not: learners of the runs read a learner, logs
// the member's write-ahead log.
func learnerNote(learners, logs, runs int) string {
	note := ""
	if logs > 0 {
		note = fmt.Sprintf("%d of %d runs here read pods through the laboratory's reader of the embedded member's write-ahead "+
			"log, the default: a process of its own that reads the member's log files read-only, joins nothing, and costs the "+
			"member nothing but its share of the same cores. Measured: its process's CPU over the run (reader CPU), that CPU's "+
			"share of all the CPU the run's processes used, and the most it ran behind the member. The calibration's pairs price "+
			"what it costs the bare apiserver. ", logs, runs)
	}
	if learners == 0 {
		if logs > 0 {
			return note
		}
		return "No run here read pods through a reader of the laboratory's own: the laboratory read the members the apiserver " +
			"stores in directly (rcbench bench -lab_reader=members), so the apiserver's figures include only the laboratory's " +
			"reads of them, and no follower's share of every write."
	}
	return note + fmt.Sprintf("%d of %d runs here read pods through the laboratory's etcd learner, a member of the apiserver's etcd "+
		"cluster that votes on nothing, run in a process of its own. Measured: its process's CPU over the run (learner CPU), and "+
		"that CPU's share of all the CPU the run's processes used (apiserver with its etcd, controller-managers, hollow-node, "+
		"learner, rcbench). Not measured within a run: the apiserver CPU the learner adds, its embedded etcd member sending every "+
		"write to one more follower, which is inside the apiserver's process. So every apiserver CPU and every time on this page "+
		"from those runs includes the learner's share. The calibration prices it: its apiserver+learner level is the bare "+
		"apiserver with a learner joined, against the same apiserver without (the ceiling, where a calibration ran); and a "+
		"control run, `<variant>-reading-members`, runs the same run reading the members directly (examples/bench/learner), "+
		"which keeps up only in small runs: a watch more than 1 000 events behind falls out of etcd's v2 window.", learners, runs)
}

// learnerCell is a run's learner CPU and its share of the run, or why
// there is none.
func learnerCell(l results.LabShare) string {
	switch l.Reader {
	case "":
		return "not recorded apart: in rcbench's CPU"
	case results.ReaderMembers:
		return "none: read the members"
	case results.ReaderAPIServer:
		return "none: read through kube-apiserver"
	}
	cell := fmt.Sprintf("%s CPU s (%.0f %% busy)", results.FormatNumber(l.LearnerCPU), 100*l.LearnerBusy)
	if share := l.LearnerShare(); share > 0 {
		cell += fmt.Sprintf(", %.1f %% of all", 100*share)
	}
	if l.Reader == results.ReaderWAL {
		of := ""
		if l.ReaderOf != "" {
			of = " of " + l.ReaderOf
		}
		cell += fmt.Sprintf("; the write-ahead log's reader%s, at most %s s behind the member", of, results.FormatNumber(l.ReaderLag))
	}
	return cell
}
