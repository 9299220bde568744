package scenario

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
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

func crashSize(n int, crash string) Size {
	sz := Size{Label: fmt.Sprintf("N=%d", n), Replicas: n, Period: period2014, Crash: crash}
	if crash != CrashAPIServer {
		sz.EtcdMembers = 3
		sz.Label += map[string]string{CrashEtcdMember: ",etcd3-one", CrashEtcdAll: ",etcd3-all"}[crash]
	}
	return sz
}

func init() {
	Register(&Scenario{
		Name:       "crash",
		Figure:     "extra_pods",
		Title:      "The apiserver killed in the middle of a scale-up",
		Reproduces: "what kill -9 (or Ctrl-C pressed twice) does to a cluster whose apiserver embeds its etcd: nothing any client was told must be lost",
		Explain: "A controller of N is created; when half its pods exist, the apiserver, and the etcd inside it, is " +
			"killed with SIGKILL and started again on the same data directory. A recorder between the apiserver " +
			"and every client notes each create and binding the apiserver acknowledged; each must still be there " +
			"afterwards, every stored object must read back whole, the managers' and hollow nodes' watches must " +
			"resume, and both designs must end with exactly N pods running. The same with the apiserver on three " +
			"external etcd members, one of them killed, or all three killed and started again.",
		Sizes: func(quick, large bool) []Size {
			if quick {
				return []Size{crashSize(100, CrashAPIServer)}
			}
			sizes := []Size{crashSize(1000, CrashAPIServer)}
			if bin, _ := etcdtest.Binary(); bin != "" {
				sizes = append(sizes, crashSize(1000, CrashEtcdMember), crashSize(1000, CrashEtcdAll))
			}
			return sizes
		},
		Talk: crashSize(1000, CrashAPIServer),
		Cluster: func(sz Size) stack.Config {
			cfg := oneManager(10)(sz)
			cfg.RecordWrites = true
			cfg.EtcdMembers = sz.EtcdMembers
			return cfg
		},
		Steps:   crashSteps,
		Results: crashResults,
		Expect: func(variant string, sz Size, r map[string]float64) error {
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
		},
	})
}

func crashSteps(sz Size) []Step {
	n := sz.Replicas
	kill := Step{
		Title: "kill -9 the apiserver, and start it again",
		Say: "Halfway there the apiserver dies without a goodbye, and its etcd with it, in the middle of " +
			"hundreds of writes. It starts again on the same data directory. Every client sees its requests fail " +
			"and its watch end, and must carry on.",
		Run: func(ctx context.Context, e *Env) error {
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
		kill.Run = func(ctx context.Context, e *Env) error {
			e.Mark("crash")
			e.Stack.Etcd.Stop(0)
			e.Mark("back")
			return nil
		}
	case CrashEtcdAll:
		kill.Title = "kill -9 all three etcd members, and start them again"
		kill.Say = "Halfway there every etcd member dies at once. Until they are back every write fails; " +
			"then they start again on their data directories, and what they acknowledged must be there."
		kill.Run = func(ctx context.Context, e *Env) error {
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
	return []Step{{
		Title: fmt.Sprintf("Create a controller of %d", n),
		Say:   "A controller asks for its pods and the manager starts creating them; every answer is recorded.",
		Run: func(ctx context.Context, e *Env) error {
			e.Mark("created")
			if err := e.CreateController(Controller("web", n, webSelector, nil)); err != nil {
				return err
			}
			// Half the creates acknowledged, so that the check after the
			// crash has as many to look for as are still to come.
			return WaitFor(ctx, convergeLimit(n), "half of the pods' creates acknowledged", func() (bool, string) {
				acked := ackedPods(e.Stack.Recorder)
				return acked >= n/2, fmt.Sprintf("%d acknowledged", acked)
			})
		},
	}, kill, {
		Title: fmt.Sprintf("Wait until exactly %d run", n),
		Say: "The managers and the hollow nodes watch again and finish the work. The 2014 manager may have " +
			"made extra pods on the way, and deletes them at a tick.",
		Run: func(ctx context.Context, e *Env) error {
			if err := e.WaitRunning(ctx, n, convergeLimit(n)); err != nil {
				return err
			}
			e.Mark("converged")
			// A late extra create would show within a tick or two.
			if err := Sleep(ctx, 2*sz.Period); err != nil {
				return err
			}
			return e.WaitRunning(ctx, n, convergeLimit(n))
		},
	}, {
		Title: "Check every acknowledged write",
		Say: "Every pod, controller and binding the apiserver said it had stored is looked up, and every stored " +
			"object is read back and validated. Look for zero lost and zero unreadable.",
		Run: func(ctx context.Context, e *Env) error {
			report, err := CheckAcknowledged(e.Client, e.Stack.Recorder)
			if err != nil {
				return err
			}
			e.Say("%s", report)
			e.setFigures(map[string]float64{
				"creates_sent":  float64(report.Sent),
				"acked_creates": float64(report.Creates), "acked_lost": float64(len(report.Lost)),
				"acked_binds": float64(report.Binds), "binds_lost": float64(len(report.BindsLost)),
				"unreadable_objects": float64(len(report.Unreadable)),
			})
			return nil
		},
	}}
}

func crashResults(e *Env) []Result {
	n := float64(e.Size.Replicas)
	f := e.figures()
	return []Result{
		{Name: "acked_lost", Unit: "objects", Value: f["acked_lost"], LowerIsBetter: true},
		{Name: "acked_creates", Unit: "objects", Value: f["acked_creates"]},
		{Name: "creates_sent", Unit: "requests", Value: f["creates_sent"]},
		{Name: "binds_lost", Unit: "bindings", Value: f["binds_lost"], LowerIsBetter: true},
		{Name: "acked_binds", Unit: "bindings", Value: f["acked_binds"]},
		{Name: "unreadable_objects", Unit: "objects", Value: f["unreadable_objects"], LowerIsBetter: true},
		{Name: "time_to_back", Unit: "s", Value: e.Seconds("crash", "back"), LowerIsBetter: true},
		{Name: "time_to_exact", Unit: "s", Value: e.Seconds("crash", "converged"), LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: e.last(sampler.PodsCreated) - n, LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: e.last(sampler.PodsActive)},
		{Name: "manager_watch_errors", Process: sampler.ProcessManager, Unit: "watches", Value: e.last(sampler.ManagerWatchErrors), LowerIsBetter: true},
		{Name: "hollow_node_relists", Process: sampler.ProcessHollowNode, Unit: "lists", Value: e.last(sampler.HollowRelists), LowerIsBetter: true},
	}
}

// ackedPods counts the pod creates rec saw acknowledged.
func ackedPods(rec *stack.WriteRecorder) int {
	creates, _, _ := rec.Acknowledged()
	n := 0
	for _, c := range creates {
		if c.Resource == "pods" {
			n++
		}
	}
	return n
}

// AckReport is what CheckAcknowledged found.
type AckReport struct {
	// Sent counts the creates sent through the recorder, answered or not.
	Sent int
	// Creates and Binds count the acknowledged creates (pods, controllers,
	// services) and bindings checked; objects a DELETE was sent for since
	// are left out.
	Creates, Binds int
	// Lost names each acknowledged create missing or with another uid;
	// BindsLost each acknowledged binding whose pod is on another host.
	Lost, BindsLost []string
	// Unreadable names each stored object that does not validate.
	Unreadable []string
	// Objects counts every object read back.
	Objects int
}

func (r AckReport) String() string {
	s := fmt.Sprintf("%d creates sent, %d acknowledged and checked, and %d acknowledged bindings; %d objects read back: %d creates lost, %d bindings lost, %d objects unreadable",
		r.Sent, r.Creates, r.Binds, r.Objects, len(r.Lost), len(r.BindsLost), len(r.Unreadable))
	for _, list := range [][]string{r.Lost, r.BindsLost, r.Unreadable} {
		if len(list) > 5 {
			list = list[:5]
		}
		for _, item := range list {
			s += "\n  " + item
		}
	}
	return s
}

// CheckAcknowledged reads every pod, controller, service, endpoints and
// minion back through c and checks them against what rec saw
// acknowledged: each acknowledged create must be there with its uid,
// unless a DELETE was sent for it since; each acknowledged binding's pod
// must be on its host; and every object must pass the apiserver's own
// validation (a LIST fails outright on an object it cannot decode).
func CheckAcknowledged(c client.Interface, rec *stack.WriteRecorder) (AckReport, error) {
	var r AckReport
	if rec == nil {
		return r, fmt.Errorf("the stack records no writes")
	}
	ctx := api.NewDefaultContext()
	everything := labels.Everything()
	stored := map[string]string{}
	hosts := map[string]string{}
	invalid := func(kind, id string, errs []error) {
		r.Objects++
		if len(errs) > 0 {
			r.Unreadable = append(r.Unreadable, fmt.Sprintf("%s %s: %v", kind, id, errs))
		}
	}
	pods, err := c.ListPods(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the pods back: %v", err)
	}
	for i := range pods.Items {
		p := &pods.Items[i]
		stored["pods/"+p.ID] = p.UID
		hosts[p.ID] = p.DesiredState.Host
		invalid("pod", p.ID, validation.ValidatePod(p))
	}
	rcs, err := c.ListReplicationControllers(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the controllers back: %v", err)
	}
	for i := range rcs.Items {
		rc := &rcs.Items[i]
		stored["replicationControllers/"+rc.ID] = rc.UID
		invalid("controller", rc.ID, validation.ValidateReplicationController(rc))
	}
	services, err := c.ListServices(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the services back: %v", err)
	}
	for i := range services.Items {
		svc := &services.Items[i]
		stored["services/"+svc.ID] = svc.UID
		invalid("service", svc.ID, validation.ValidateService(svc))
	}
	endpoints, err := c.ListEndpoints(ctx, everything)
	if err != nil {
		return r, fmt.Errorf("reading the endpoints back: %v", err)
	}
	for i := range endpoints.Items {
		invalid("endpoints", endpoints.Items[i].ID, validation.ValidateEndpoints(&endpoints.Items[i]))
	}
	minions, err := c.ListMinions()
	if err != nil {
		return r, fmt.Errorf("reading the minions back: %v", err)
	}
	for i := range minions.Items {
		invalid("minion", minions.Items[i].ID, validation.ValidateMinion(&minions.Items[i]))
	}

	r.Sent = rec.Sent()
	creates, binds, deleted := rec.Acknowledged()
	for _, w := range creates {
		key := w.Resource + "/" + w.ID
		if deleted[key] {
			continue
		}
		r.Creates++
		if uid, ok := stored[key]; !ok {
			r.Lost = append(r.Lost, fmt.Sprintf("%s (uid %s, acknowledged to %s) is missing", key, w.UID, w.Component))
		} else if uid != w.UID {
			r.Lost = append(r.Lost, fmt.Sprintf("%s has uid %s, acknowledged to %s as %s", key, uid, w.Component, w.UID))
		}
	}
	for pod, host := range binds {
		if deleted["pods/"+pod] {
			continue
		}
		r.Binds++
		if got, ok := hosts[pod]; !ok {
			r.BindsLost = append(r.BindsLost, fmt.Sprintf("pod %s is missing, its binding to %s was acknowledged", pod, host))
		} else if got != host {
			r.BindsLost = append(r.BindsLost, fmt.Sprintf("pod %s is on %q, its binding to %s was acknowledged", pod, got, host))
		}
	}
	return r, nil
}
