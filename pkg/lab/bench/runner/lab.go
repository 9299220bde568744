package runner

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// busyCore is the CPU rate, in cores, at which a process counts as using a
// full core.
const busyCore = 0.9

// saturatedBusy is the share of the run at a full core past which the
// process could not have kept up with more work.
const saturatedBusy = 0.5

// labShare reads the laboratory's share from a run's samples, failed runs
// included; nil when nothing was sampled.
func labShare(o *scenario.Outcome) *results.LabShare {
	if o == nil || o.Rec == nil {
		return nil
	}
	rec := o.Rec
	l := &results.LabShare{
		HollowCPU:      rec.Last(sampler.HollowNodeCPU),
		RcbenchCPU:     rec.Last(sampler.SelfCPU),
		HollowRelists:  rec.Last(sampler.HollowRelists),
		HollowExpired:  rec.Last(sampler.HollowExpired),
		RcbenchRelists: rec.Last(sampler.SelfRelists),
		RcbenchResumes: rec.Last(sampler.SelfResumes),
		RcbenchExpired: rec.Last(sampler.SelfExpired),
		QueueEnd:       rec.Last(sampler.HollowQueue),
		WatchLag:       rec.Max(sampler.HollowWatchLag),
	}
	l.Reader = results.ReaderMembers
	if learner := rec.Series(sampler.LearnerCPU); len(learner) > 0 {
		l.Reader = results.ReaderLearner
		l.LearnerCPU = rec.Last(sampler.LearnerCPU)
		l.LearnerBusy, _ = busy(learner)
	}
	var hollowSeconds float64
	l.HollowBusy, hollowSeconds = busy(rec.Series(sampler.HollowNodeCPU))
	if kwok := rec.Series(scenario.KWOKCPU); len(kwok) > 0 {
		// Today's stack: KWOK and the scheduler play the nodes.
		l.Nodes = "KWOK and kube-scheduler"
		l.Reader = results.ReaderAPIServer
		l.HollowCPU = rec.Last(scenario.KWOKCPU) + rec.Last(scenario.SchedulerCPU)
		kwokBusy, kwokSeconds := busy(kwok)
		schedBusy, _ := busy(rec.Series(scenario.SchedulerCPU))
		l.HollowBusy, hollowSeconds = max(kwokBusy, schedBusy), kwokSeconds
	}
	// A reader of the write-ahead log serves its lag, on either stack.
	if lag := rec.Series(sampler.ReaderLagMax); len(lag) > 0 {
		l.Reader, l.ReaderLag, l.ReaderOf = results.ReaderWAL, rec.Max(sampler.ReaderLagMax), o.ReaderOf
	}
	// After the nodes' CPU is known, KWOK's and kube-scheduler's on
	// today's stack.
	l.AllCPU = rec.Last(sampler.APIServerCPU) + grown(rec.Series(sampler.ManagerCPU)) + l.HollowCPU + l.LearnerCPU + l.RcbenchCPU
	l.RcbenchBusy, l.Seconds = busy(rec.Series(sampler.SelfCPU))
	if hollowSeconds > l.Seconds {
		l.Seconds = hollowSeconds
	}
	var why []string
	if l.HollowBusy >= saturatedBusy {
		who := "hollow-node"
		if l.Nodes != "" {
			who = "one of " + l.Nodes
		}
		why = append(why, fmt.Sprintf("%s used a full core for %.0f %% of the run", who, 100*l.HollowBusy))
	}
	if l.RcbenchBusy >= saturatedBusy {
		why = append(why, fmt.Sprintf("rcbench used a full core for %.0f %% of the run", 100*l.RcbenchBusy))
	}
	if l.LearnerBusy >= saturatedBusy {
		why = append(why, fmt.Sprintf("the laboratory's etcd learner used a full core for %.0f %% of the run", 100*l.LearnerBusy))
	}
	if l.HollowExpired > 0 {
		why = append(why, fmt.Sprintf("the hollow nodes' pod watch fell out of etcd's window of 1000 events %s, and they listed every pod again", times(l.HollowExpired)))
	}
	if l.RcbenchExpired > 0 && l.Nodes == "" {
		why = append(why, fmt.Sprintf("the benchmark's pod watch fell out of etcd's window %s", times(l.RcbenchExpired)))
	}
	if l.Nodes != "" && l.RcbenchRelists > 0 {
		// On today's stack a watch the apiserver ends is taken up where
		// it was (sampler, pods_v1.go); only one that cannot be, its
		// version gone from the apiserver's watch cache (410) or the
		// watch refused, costs a relist.
		why = append(why, fmt.Sprintf("the benchmark's pod watch of the apiserver could not be taken up where it ended %s (%s with 410, its version gone from the apiserver's watch cache), and it listed every pod again",
			times(l.RcbenchRelists), results.FormatNumber(l.RcbenchExpired)))
	}
	l.Saturated = strings.Join(why, "; ")
	return l
}

// machineUse says, for a run stopped at its limit, how far it had come
// and how much of the machine its processes had used: a run whose
// processes kept every core busy was stopped by what the machine gives,
// which the sweep's breaking point then names.
func machineUse(rec *sampler.Recorder, l *results.LabShare, sz scenario.Size, cores int) string {
	if rec == nil || l == nil || l.Seconds <= 0 || cores <= 0 {
		return ""
	}
	pods := sz.Replicas * max(1, sz.Controllers)
	have := float64(cores) * l.Seconds
	return fmt.Sprintf("; by then %s of %s pods ran, and the run's processes had used %s CPU s of the %s its %d cores had in %s s (%.0f %%)",
		results.FormatNumber(rec.Last(sampler.PodsRunning)), results.FormatNumber(float64(pods)), results.FormatNumber(l.AllCPU),
		results.FormatNumber(have), cores, results.FormatNumber(l.Seconds), 100*l.CoresShare(cores))
}

func times(n float64) string {
	if n == 1 {
		return "once"
	}
	return results.FormatNumber(n) + " times"
}

// grown returns how much a cumulative series grew over the run.
func grown(s []sampler.Point) float64 {
	if len(s) < 2 {
		return 0
	}
	return s[len(s)-1].V - s[0].V
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

// LabRuns lists the laboratory's share of every run that sampled anything.
func LabRuns(runs []results.RunRecord) []results.LabRun {
	var out []results.LabRun
	for _, r := range runs {
		if r.Lab == nil {
			continue
		}
		out = append(out, results.LabRun{Scenario: r.Scenario, Size: r.Size.Label, Variant: r.Variant.Name, Run: r.Index + 1, Failed: r.Outcome == nil, LabShare: *r.Lab})
	}
	return out
}
