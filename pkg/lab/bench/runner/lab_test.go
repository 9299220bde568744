package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func TestTheLaboratorysShareCountsBusyTimeAndNamesWhatSaturatedIt(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	// hollow-node: a full core for 6 s of 10, idle the rest.
	for i, v := range []float64{0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6} {
		rec.Add(sampler.HollowNodeCPU, at(float64(i)), v)
		rec.Add(sampler.SelfCPU, at(float64(i)), 0.1*float64(i))
	}
	rec.Add(sampler.HollowQueue, at(10), 42)
	rec.Add(sampler.HollowWatchLag, at(5), 700)
	l := labShare(&scenario.Outcome{Rec: rec})
	if l.HollowBusy != 0.6 || l.RcbenchBusy != 0 || l.HollowCPU != 6 || l.QueueEnd != 42 || l.WatchLag != 700 || l.Seconds != 10 {
		t.Errorf("share %+v", l)
	}
	if l.Saturated != "hollow-node used a full core for 60 % of the run" {
		t.Errorf("saturated %q", l.Saturated)
	}
	rec.Add(sampler.HollowNodeCPU, at(20), 6)
	if l := labShare(&scenario.Outcome{Rec: rec}); l.Saturated != "" {
		t.Errorf("a hollow node busy for 6 s of 20 is saturated: %q", l.Saturated)
	}
}

func TestTheLaboratorysShareNamesTheLearnerAndItsPartOfAllTheCPU(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	for i := 0; i <= 10; i++ {
		s := float64(i)
		rec.Add(sampler.APIServerCPU, at(s), 3*s)
		rec.Add(sampler.ManagerCPU, at(s), 100+s)
		rec.Add(sampler.HollowNodeCPU, at(s), 0.5*s)
		rec.Add(sampler.SelfCPU, at(s), 0.1*s)
	}
	l := labShare(&scenario.Outcome{Rec: rec})
	if l.Reader != results.ReaderMembers || l.LearnerCPU != 0 {
		t.Errorf("a run with no learner's process reads %q with learner CPU %v", l.Reader, l.LearnerCPU)
	}
	for i := 0; i <= 10; i++ {
		rec.Add(sampler.LearnerCPU, at(float64(i)), 0.4*float64(i))
	}
	l = labShare(&scenario.Outcome{Rec: rec})
	// 30 apiserver + 10 managers (grown, not their total) + 5 + 1 + 4.
	if l.Reader != results.ReaderLearner || l.LearnerCPU != 4 || l.AllCPU != 50 || l.LearnerShare() != 0.08 {
		t.Errorf("share %+v, learner's part %v", l, l.LearnerShare())
	}
}

// TestOnTodaysStackKWOKAndTheSchedulerAreTheLaboratorysNodes: where KWOK
// and the scheduler play the nodes, their CPU is the nodes' share, the
// busier one saturates it, and the run says who they are.
func TestOnTodaysStackKWOKAndTheSchedulerAreTheLaboratorysNodes(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	// KWOK: a full core for 6 s of 10; the scheduler a tenth of one.
	for i, v := range []float64{0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6} {
		rec.Add(scenario.KWOKCPU, at(float64(i)), v)
		rec.Add(scenario.SchedulerCPU, at(float64(i)), 0.1*float64(i))
	}
	l := labShare(&scenario.Outcome{Rec: rec})
	if l.Nodes != "KWOK and kube-scheduler" || l.HollowCPU != 7 || l.HollowBusy != 0.6 {
		t.Errorf("share %+v, want KWOK's and the scheduler's 7 CPU s, 60 %% busy", l)
	}
	if l.Saturated != "one of KWOK and kube-scheduler used a full core for 60 % of the run" {
		t.Errorf("saturated %q", l.Saturated)
	}
}

// On today's stack the benchmark's pod watch is of the apiserver: one it
// cannot take up where it ended, and the relist that follows, saturate
// the run as a fall out of etcd's window does on ours.
func TestOnTodaysStackARelistOfTheBenchmarksWatchSaturatesTheRun(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	for i := 0; i <= 10; i++ {
		rec.Add(scenario.KWOKCPU, at(float64(i)), 0.1*float64(i))
		rec.Add(scenario.SchedulerCPU, at(float64(i)), 0.1*float64(i))
		rec.Add(sampler.SelfRelists, at(float64(i)), float64(i/4))
	}
	l := labShare(&scenario.Outcome{Rec: rec})
	if !strings.Contains(l.Saturated, "the benchmark's pod watch of the apiserver could not be taken up where it ended 2 times") {
		t.Errorf("saturated %q, want the benchmark's two relists named", l.Saturated)
	}
	if l.Reader != results.ReaderAPIServer {
		t.Errorf("today's stack's pods read by %q, want through kube-apiserver (%q)", l.Reader, results.ReaderAPIServer)
	}
}

// A run stopped at its limit says how far it came and how much of the
// machine its processes had used, the nodes' and the laboratory's
// included: today's stack's KWOK and kube-scheduler count in it.
func TestARunStoppedAtItsLimitSaysHowBusyTheMachineWas(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	for i := 0; i <= 100; i += 10 {
		s := float64(i)
		rec.Add(sampler.APIServerCPU, at(s), s)
		rec.Add(sampler.SelfCPU, at(s), 0.2*s)
		rec.Add(scenario.KWOKCPU, at(s), 0.2*s)
		rec.Add(scenario.SchedulerCPU, at(s), 0.4*s)
		rec.Add(sampler.PodsRunning, at(s), 40*s)
	}
	l := labShare(&scenario.Outcome{Rec: rec})
	got := machineUse(rec, l, scenario.Size{Replicas: 10000}, 2)
	want := "; by then 4000 of 10000 pods ran, and the run's processes had used 180 CPU s of the 200 its 2 cores had in 100 s (90 %)"
	if got != want {
		t.Errorf("machineUse:\n got %q\nwant %q", got, want)
	}
}

// A reader of the write-ahead log is told from a learner by the lag it
// serves, on either stack, and its most lag is the run's.
func TestTheLaboratorysShareNamesTheLogsReaderAndItsLag(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	for i := 0; i <= 10; i++ {
		s := float64(i)
		rec.Add(sampler.LearnerCPU, at(s), 0.2*s)
		rec.Add(sampler.ReaderLagMax, at(s), min(0.05, 0.01*s))
		// Today's stack: KWOK plays the nodes.
		rec.Add(scenario.KWOKCPU, at(s), 0.1*s)
	}
	l := labShare(&scenario.Outcome{Rec: rec})
	if l.Reader != results.ReaderWAL || l.ReaderLag != 0.05 || l.LearnerCPU != 2 {
		t.Errorf("share %+v", l)
	}
}
