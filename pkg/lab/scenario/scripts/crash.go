package scripts

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/acked"
)

// What the crash scenario kills, in Size.Crash.
const (
	// CrashAPIServer kills the apiserver, and the etcd inside it, with
	// SIGKILL and starts it again on the same data directory.
	CrashAPIServer = "apiserver"
	// CrashEtcdMember kills one of three external etcd members, the one
	// the apiserver talks to first, and leaves it dead.
	CrashEtcdMember = "etcd-member"
	// CrashEtcdAll kills all three external members and starts them again
	// on their data directories.
	CrashEtcdAll = "etcd-all"
)

func crashSize(n int, crash string) scenario.Size {
	sz := scenario.Size{Label: fmt.Sprintf("N=%d", n), Replicas: n, Period: period2014, Crash: crash}
	if crash != CrashAPIServer {
		sz.EtcdMembers = 3
		sz.Label += map[string]string{CrashEtcdMember: ",etcd3-one", CrashEtcdAll: ",etcd3-all"}[crash]
	}
	return sz
}

// crashTalkLength is crash's TalkLength: it has no recording in
// examples/talk, and the talk's README cites this length.
const crashTalkLength = 90 * time.Second

var _ = described(100, crash)

// crash kills the apiserver, or etcd, in the middle of a scale-up.
func crash() *scenario.Scenario {
	cluster := oneManager(10)
	cluster.RecordWrites = true
	return &scenario.Scenario{
		Name:       "crash",
		Figure:     "extra_pods",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureExtra, Label: "extra pods"},
		Title:      "The apiserver killed in the middle of a scale-up",
		Reproduces: "what kill -9 (or Ctrl-C pressed twice) does to a cluster whose apiserver embeds its etcd: nothing any client was told must be lost",
		Explain: "A controller of N is created; when half its pods exist, the apiserver, and the etcd inside it, is " +
			"killed with SIGKILL and started again on the same data directory. A recorder between the apiserver " +
			"and every client notes each create and binding the apiserver acknowledged; each must still be there " +
			"afterwards, every stored object must read back whole, the managers' and hollow nodes' watches must " +
			"resume, and both designs must end with exactly N pods running. The same with the apiserver on three " +
			"external etcd members, one of them killed, or all three killed and started again.",
		// The sizes on external etcd members run where an etcd binary is
		// installed (see Sizes).
		Full:       []scenario.Size{crashSize(1000, CrashAPIServer), crashSize(1000, CrashEtcdMember), crashSize(1000, CrashEtcdAll)},
		Quick:      []scenario.Size{crashSize(100, CrashAPIServer)},
		Talk:       crashSize(1000, CrashAPIServer),
		Cluster:    cluster,
		Bench:      &scenario.Bench{Variants: scenario.LegacyAndModern},
		TalkLength: crashTalkLength,
		Script:     crashScript{},
	}
}

type crashScript struct{}

func (crashScript) Steps(sz scenario.Size) []scenario.Step {
	n := sz.Replicas
	kill := scenario.Step{
		Title: "kill -9 the apiserver, and start it again",
		Say: "Halfway there the apiserver dies without a goodbye, and its etcd with it, in the middle of " +
			"hundreds of writes. It starts again on the same data directory. Every client sees its requests fail " +
			"and its watch end, and must carry on.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("crash")
			if err := e.Stack.RestartAPIServer(syscall.SIGKILL); err != nil {
				return err
			}
			e.Mark("back")
			return nil
		},
	}
	switch sz.Crash {
	case CrashEtcdMember:
		kill.Title = "kill -9 one of the three etcd members"
		kill.Say = "Halfway there the etcd member the apiserver talks to dies. The other two still make a " +
			"majority: the apiserver's client must move to them without losing a write."
		kill.Run = func(ctx context.Context, e *scenario.Env) error {
			e.Mark("crash")
			e.Stack.Etcd.Stop(0)
			e.Mark("back")
			return nil
		}
	case CrashEtcdAll:
		kill.Title = "kill -9 all three etcd members, and start them again"
		kill.Say = "Halfway there every etcd member dies at once. Until they are back every write fails; " +
			"then they start again on their data directories, and what they acknowledged must be there."
		kill.Run = func(ctx context.Context, e *scenario.Env) error {
			e.Mark("crash")
			for i := range e.Stack.Etcd.Members {
				e.Stack.Etcd.Stop(i)
			}
			for i := range e.Stack.Etcd.Members {
				if err := e.Stack.Etcd.Start(i); err != nil {
					return err
				}
			}
			for i := range e.Stack.Etcd.Members {
				if err := e.Stack.Etcd.WaitHealthy(i, time.Minute); err != nil {
					return err
				}
			}
			e.Mark("back")
			return nil
		}
	}
	return []scenario.Step{{
		Title: fmt.Sprintf("Create a controller of %d", n),
		Say:   "A controller asks for its pods and the manager starts creating them; every answer is recorded.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("created")
			if err := e.CreateController(scenario.Controller("web", n, webSelector, nil)); err != nil {
				return err
			}
			// Half the creates acknowledged, so that the check after the
			// crash has as many to look for as are still to come, and a
			// binding: managers or hollow nodes reaching the apiserver
			// around the recorder would leave it nothing to check.
			return scenario.WaitFor(ctx, scenario.ConvergeLimit(n), "half of the pods' creates and a binding acknowledged", func() (bool, string) {
				pods := acked.Pods(e.Stack.Recorder)
				_, binds, _ := e.Stack.Recorder.Acknowledged()
				return 2*pods >= n && len(binds) > 0, fmt.Sprintf("%d pod creates and %d bindings acknowledged", pods, len(binds))
			})
		},
	}, kill, {
		Title: fmt.Sprintf("Wait until exactly %d run", n),
		Say: "The managers and the hollow nodes watch again and finish the work. The 2014 manager may have " +
			"made extra pods on the way, and deletes them at a tick.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.WaitRunning(ctx, n, scenario.ConvergeLimit(n)); err != nil {
				return err
			}
			e.Mark("converged")
			// A late extra create would show within a tick or two.
			if err := scenario.Sleep(ctx, 2*sz.Period); err != nil {
				return err
			}
			return e.WaitRunning(ctx, n, scenario.ConvergeLimit(n))
		},
	}, {
		Title: "Check every acknowledged write",
		Say: "Every pod, controller and binding the apiserver said it had stored is looked up, and every stored " +
			"object is read back and validated. Look for zero lost and zero unreadable.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			report, err := acked.Check(e.Client, e.Stack.Recorder)
			if err != nil {
				return err
			}
			e.Say("%s", report)
			e.SetFigures(map[string]float64{
				"creates_sent":  float64(report.Sent),
				"acked_creates": float64(report.Creates), "acked_lost": float64(len(report.Lost)),
				"acked_binds": float64(report.Binds), "binds_lost": float64(len(report.BindsLost)),
				"unreadable_objects": float64(len(report.Unreadable)),
			})
			return report.Enough(n)
		},
	}}
}

func (crashScript) Results(e *scenario.Env) []scenario.Result {
	n := float64(e.Size.Replicas)
	f := e.Figures()
	return []scenario.Result{
		{Name: "acked_lost", Unit: "objects", Value: f["acked_lost"], LowerIsBetter: true},
		{Name: "acked_creates", Unit: "objects", Value: f["acked_creates"]},
		{Name: "creates_sent", Unit: "requests", Value: f["creates_sent"]},
		{Name: "binds_lost", Unit: "bindings", Value: f["binds_lost"], LowerIsBetter: true},
		{Name: "acked_binds", Unit: "bindings", Value: f["acked_binds"]},
		{Name: "unreadable_objects", Unit: "objects", Value: f["unreadable_objects"], LowerIsBetter: true},
		{Name: "time_to_back", Unit: "s", Value: e.Seconds("crash", "back"), LowerIsBetter: true},
		{Name: "time_to_exact", Unit: "s", Value: e.Seconds("crash", "converged"), LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: e.Last(sampler.PodsCreated) - n, LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: e.Last(sampler.PodsActive)},
		{Name: "manager_watch_errors", Process: sampler.ProcessManager, Unit: "watches", Value: e.Last(sampler.ManagerWatchErrors), LowerIsBetter: true},
		{Name: "hollow_node_relists", Process: sampler.ProcessHollowNode, Unit: "lists", Value: e.Last(sampler.HollowRelists), LowerIsBetter: true},
	}
}

func (crashScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	if r["acked_lost"] != 0 || r["binds_lost"] != 0 || r["unreadable_objects"] != 0 {
		return fmt.Errorf("%.0f acknowledged creates and %.0f acknowledged bindings lost, %.0f objects unreadable; want none",
			r["acked_lost"], r["binds_lost"], r["unreadable_objects"])
	}
	if r["acked_creates"] == 0 {
		return fmt.Errorf("no create was acknowledged through the recorder: nothing was checked")
	}
	if r["final_active"] != float64(sz.Replicas) {
		return fmt.Errorf("%.0f active pods at the end, want %d", r["final_active"], sz.Replicas)
	}
	return nil
}
