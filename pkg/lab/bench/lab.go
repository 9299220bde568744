package bench

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// The laboratory's share of a run: what the hollow nodes (the stand-ins
// for the 2014 scheduler and kubelets) and the benchmark itself cost, and
// whether they kept up. A run in which they did not is flagged as
// saturated: it measured the laboratory as much as the design, and a
// sweep never counts its failure as the design's breaking point.

// LabShare is the laboratory's share of one run.
type LabShare struct {
	// Seconds is how long the run was sampled.
	Seconds float64 `json:"seconds"`
	// HollowCPU and RcbenchCPU are the CPU seconds the hollow-node process
	// and the benchmark's own process used over the run; HollowBusy and
	// RcbenchBusy the share of the run in which each used 90 % of a core
	// or more.
	HollowCPU   float64 `json:"hollowCPU"`
	HollowBusy  float64 `json:"hollowBusy"`
	RcbenchCPU  float64 `json:"rcbenchCPU"`
	RcbenchBusy float64 `json:"rcbenchBusy"`
	// HollowRelists and RcbenchRelists count the lists of every pod after
	// the first, whatever ended the watch before; HollowExpired and
	// RcbenchExpired those of them after a watch fell out of etcd's
	// window of 1000 events.
	HollowRelists  float64 `json:"hollowRelists"`
	HollowExpired  float64 `json:"hollowExpired"`
	RcbenchRelists float64 `json:"rcbenchRelists"`
	RcbenchExpired float64 `json:"rcbenchExpired"`
	// QueueEnd is the hollow nodes' work waiting at the end: events read
	// and not applied, pods waiting for a worker.
	QueueEnd float64 `json:"queueEnd"`
	// WatchLag is the most etcd indexes the hollow nodes' pod watch was
	// behind their own writes.
	WatchLag float64 `json:"watchLag"`
	// Saturated says why the laboratory did not keep up, or is empty.
	Saturated string `json:"saturated,omitempty"`
}

// busyCore is the CPU rate, in cores, at which a process counts as using a
// full core.
const busyCore = 0.9

// saturatedBusy is the share of the run at a full core past which the
// process could not have kept up with more work.
const saturatedBusy = 0.5

// labShare reads the laboratory's share from a run's samples, failed runs
// included; nil when nothing was sampled.
func labShare(o *scenario.Outcome) *LabShare {
	if o == nil || o.Rec == nil {
		return nil
	}
	rec := o.Rec
	l := &LabShare{
		HollowCPU:      rec.Last(sampler.HollowNodeCPU),
		RcbenchCPU:     rec.Last(sampler.SelfCPU),
		HollowRelists:  rec.Last(sampler.HollowRelists),
		HollowExpired:  rec.Last(sampler.HollowExpired),
		RcbenchRelists: rec.Last(sampler.SelfRelists),
		RcbenchExpired: rec.Last(sampler.SelfExpired),
		QueueEnd:       rec.Last(sampler.HollowQueue),
		WatchLag:       rec.Max(sampler.HollowWatchLag),
	}
	var hollowSeconds float64
	l.HollowBusy, hollowSeconds = busy(rec.Series(sampler.HollowNodeCPU))
	l.RcbenchBusy, l.Seconds = busy(rec.Series(sampler.SelfCPU))
	if hollowSeconds > l.Seconds {
		l.Seconds = hollowSeconds
	}
	var why []string
	if l.HollowBusy >= saturatedBusy {
		why = append(why, fmt.Sprintf("hollow-node used a full core for %.0f %% of the run", 100*l.HollowBusy))
	}
	if l.RcbenchBusy >= saturatedBusy {
		why = append(why, fmt.Sprintf("rcbench used a full core for %.0f %% of the run", 100*l.RcbenchBusy))
	}
	if l.HollowExpired > 0 {
		why = append(why, fmt.Sprintf("the hollow nodes' pod watch fell out of etcd's window of 1000 events %s, and they listed every pod again", times(l.HollowExpired)))
	}
	if l.RcbenchExpired > 0 {
		why = append(why, fmt.Sprintf("the benchmark's pod watch fell out of etcd's window %s", times(l.RcbenchExpired)))
	}
	l.Saturated = strings.Join(why, "; ")
	return l
}

func times(n float64) string {
	if n == 1 {
		return "once"
	}
	return formatNumber(n) + " times"
}

// busy returns the share of a cumulative CPU series' span in which it
// grew at busyCore or more, and the span in seconds.
func busy(cpu []sampler.Point) (share, seconds float64) {
	if len(cpu) < 2 {
		return 0, 0
	}
	var full float64
	for i := 1; i < len(cpu); i++ {
		dt := cpu[i].T - cpu[i-1].T
		if dt > 0 && (cpu[i].V-cpu[i-1].V)/dt >= busyCore {
			full += dt
		}
	}
	seconds = cpu[len(cpu)-1].T - cpu[0].T
	if seconds <= 0 {
		return 0, 0
	}
	return full / seconds, seconds
}

// LabRun is the laboratory's share of one run, as the summary keeps it.
type LabRun struct {
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Variant  string `json:"variant"`
	Run      int    `json:"run"`
	Failed   bool   `json:"failed,omitempty"`
	LabShare
}

// labRuns lists the laboratory's share of every run that sampled anything.
func labRuns(runs []RunRecord) []LabRun {
	var out []LabRun
	for _, r := range runs {
		if r.Lab == nil {
			continue
		}
		out = append(out, LabRun{Scenario: r.Scenario, Size: r.Size.Label, Variant: r.Variant, Run: r.Index + 1, Failed: r.Outcome == nil, LabShare: *r.Lab})
	}
	return out
}

// labSection writes the laboratory's share of every run.
func labSection(d *document, runs []LabRun) {
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
		"design, and a sweep does not count its failure as the design's breaking point. %d of %d runs here were saturated.",
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
		t.rows = append(t.rows, []string{name,
			fmt.Sprintf("%s CPU s (%.0f %% busy)", formatNumber(r.HollowCPU), 100*r.HollowBusy),
			fmt.Sprintf("%s CPU s (%.0f %% busy)", formatNumber(r.RcbenchCPU), 100*r.RcbenchBusy),
			fmt.Sprintf("%s (%s)", formatNumber(r.HollowRelists), formatNumber(r.HollowExpired)),
			fmt.Sprintf("%s (%s)", formatNumber(r.RcbenchRelists), formatNumber(r.RcbenchExpired)),
			formatNumber(r.QueueEnd), formatNumber(r.WatchLag), verdict})
	}
	d.table(t)
}
