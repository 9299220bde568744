package scripts

import (
	"context"
	"fmt"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"k8s.io/apimachinery/pkg/util/wait"
)

// A cluster that should be quiet: what each design costs standing still.

// idleQuickWindow is idle's quiet window at its quick size, which every
// default run takes (its full size watches for 2 minutes).
const idleQuickWindow = 30 * time.Second

var _ = described(40, idle)

// idle asks what the managers ask for when nothing happens.
func idle() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "idle",
		Figure:     "lists_per_min",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureListsPerMin, Label: "LISTs a minute", Step: 2},
		Title:      "An idle cluster: what the managers ask for when nothing happens",
		Reproduces: "the LISTs of idle managers, a large share of the apiserver's work in 2015 (history: pod-informer, endpoints-informer)",
		Explain: "M controllers of k running pods, then a quiet window. Every 10 s the 2014 manager lists " +
			"all controllers and, per controller, its pods — 6·(1 + M) LISTs a minute — and the endpoints " +
			"controller lists the services. The modern manager's controllers answer from their caches and send " +
			"about nothing; its leader election renews its lease every 2 s, about 30 requests a minute, counted " +
			"apart.",
		Full:      []scenario.Size{{Label: "M=10,k=10", Controllers: 10, Replicas: 10, Period: period2014, Window: 2 * time.Minute}},
		Quick:     []scenario.Size{{Label: "M=10,k=10", Controllers: 10, Replicas: 10, Period: period2014, Window: idleQuickWindow}},
		Cluster:   oneManager(10),
		Intervals: sampler.Intervals{Pods: 500 * time.Millisecond, APIServer: time.Second, Managers: time.Second},
		Today:     true,
		// In every default run: at its 30 s quick window, as the 2-minute
		// one would use up the time budget, and twice, as its window
		// counts ticks rather than time.
		Bench: &scenario.Bench{Default: true, Quick: true, Variants: scenario.LegacyAndModern, DefaultSizes: scenario.QuickSizes, DefaultRuns: 2},
		Headline: []scenario.Headline{
			{Result: "requests_per_min", Label: "requests a minute, every purpose (leader election included)"},
			{Result: "sync_requests_per_min", Label: "of which the controllers' syncs"},
			{Result: "status_writes_per_min", Label: "of which status writes"},
			{Result: "election_requests_per_min", Label: "of which leader election (lease renewals)"},
			{Result: "events_per_min", Label: "of which events"},
		},
		Script: idleScript{},
	}
}

type idleScript struct{}

func (idleScript) Steps(sz scenario.Size) []scenario.Step {
	start := scenario.Step{
		Title: fmt.Sprintf("Start %d controllers of %d pods", sz.Controllers, sz.Replicas),
		Say:   "The controllers come up. Nothing will change after this.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := startControllers(ctx, e, sz.Controllers, sz.Replicas); err != nil {
				return err
			}
			return settleBetweenTicks(ctx, e, sz.Period)
		},
	}
	if sz.PodsFirst {
		start.Title = fmt.Sprintf("Create %d controllers and their %d pods each, then start the manager", sz.Controllers, sz.Replicas)
		start.Say = "The benchmark makes the pods the manager would have made; the manager starts and finds nothing to do."
	}
	return []scenario.Step{start, {
		Title: fmt.Sprintf("Do nothing for %v", sz.Window),
		Say: "Nothing changes now. Watch the request counters: the 2014 manager still lists every " +
			"controller and its pods on every tick; the modern one's controllers are silent, and only its " +
			"leader election renews its lease, a PUT every 2 s.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("idle-start")
			if err := scenario.Sleep(ctx, sz.Window); err != nil {
				return err
			}
			e.Mark("idle-end")
			return nil
		},
	}}
}

func (idleScript) Results(e *scenario.Env) []scenario.Result {
	cpuStart := e.Sampler.Rec.Between(sampler.ManagerCPU, 0, e.At("idle-start"))
	cpuEnd := e.Sampler.Rec.Between(sampler.ManagerCPU, 0, e.At("idle-end"))
	minutes := e.Seconds("idle-start", "idle-end") / 60
	purpose := func(p string) float64 { return e.PerMinute(sampler.ManagerPurpose+p, "idle-start", "idle-end") }
	cm := func(name string, v float64) scenario.Result {
		return scenario.Result{Name: name, Process: sampler.ProcessManager, Unit: "req/min", Value: v, LowerIsBetter: true}
	}
	out := []scenario.Result{
		// Every request of the controller-manager process: its
		// controllers' and its leader election's.
		cm("requests_per_min", e.ManagerRequestsPerMinute("idle-start", "idle-end")),
		cm("sync_requests_per_min", purpose(sampler.PurposeSync)),
		cm("lists_per_min", e.PerMinute(sampler.ManagerRequests+"LIST", "idle-start", "idle-end")),
		cm("gets_per_min", e.PerMinute(sampler.ManagerRequests+"GET", "idle-start", "idle-end")),
		cm("status_writes_per_min", purpose(sampler.PurposeStatus)),
		cm("election_requests_per_min", purpose(sampler.PurposeElection)),
		cm("events_per_min", purpose(sampler.PurposeEvents)),
		// The same requests' bodies, both ways, as the apiserver
		// read and wrote them, lease renewals included.
		{Name: "bytes_per_min", Process: sampler.ProcessManager, Unit: "kB/min", Value: e.PerMinute(sampler.ManagerBytes, "idle-start", "idle-end") / 1000, LowerIsBetter: true},
		{Name: "cpu_per_min", Process: sampler.ProcessManager, Unit: "CPU s/min", Value: (cpuEnd - cpuStart) / minutes, LowerIsBetter: true},
		{Name: "apiserver_cpu_per_min", Process: sampler.ProcessAPIServer, Unit: "CPU s/min", Value: e.PerMinute(sampler.APIServerCPU, "idle-start", "idle-end"), LowerIsBetter: true},
		// What the manager holds at rest: its caches, in the
		// modern design, are most of it.
		{Name: "manager_rss", Process: sampler.ProcessManager, Unit: "MiB", Value: e.Sampler.Rec.Last(sampler.ManagerRSS) / (1 << 20), LowerIsBetter: true},
		{Name: "goroutines", Process: sampler.ProcessManager, Unit: "goroutines", Value: e.Sampler.Rec.Last(sampler.ManagerGoroutines), LowerIsBetter: true},
	}
	// What the window held, counted rather than timed: the figures the
	// expectation judges.
	count := func(name, series, unit string) scenario.Result {
		return scenario.Result{Name: name, Process: sampler.ProcessManager, Unit: unit, Value: e.Between(series, "idle-start", "idle-end"), LowerIsBetter: true}
	}
	out = append(out,
		count("lists_during_idle", sampler.ManagerRequests+"LIST", "requests"),
		count("pod_creates_during_idle", sampler.ManagerPodPosts, "requests"),
		count("deletes_during_idle", sampler.ManagerRequests+"DELETE", "requests"),
		count("election_requests_during_idle", sampler.ManagerPurpose+sampler.PurposeElection, "requests"))
	return append(out, e.TicksResult("ticks_during_idle", "idle-start", "idle-end")...)
}

// Expect judges the window by what it held, not by how long it lasted: a
// busy machine lets fewer ticks come in a minute, but each still sends
// its LISTs. The rates stay on the page as figures (and the sweep's
// breaking point reads them: pkg/lab/bench).
func (idleScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	perTick := float64(1 + sz.Controllers)
	lists := r["lists_during_idle"]
	switch v.Design {
	case scenario.Legacy.Design:
		// Every tick a LIST of controllers and one of pods per
		// controller (and the endpoints controller's LISTs besides).
		// The ticks are the manager's count and the LISTs the
		// apiserver's, read one after the other at each edge of the
		// window: on a busy machine a tick can fall between the two
		// reads, and the window's last tick can be cut by its end, so
		// two ticks' LISTs may be missing. A manager that counts no
		// ticks (the original v0.4) must still have sent one tick's.
		if ticks, ok := r["ticks_during_idle"]; !ok {
			if lists < perTick {
				return fmt.Errorf("legacy sent %.0f LISTs while idle, want at least one tick's 1 + M = %.0f", lists, perTick)
			}
		} else if ticks < 3 || lists < perTick*(ticks-2) {
			return fmt.Errorf("legacy sent %.0f LISTs in %.0f of its ticks while idle, want 1 + M = %.0f every tick", lists, ticks, perTick)
		}
		if r["election_requests_during_idle"] != 0 {
			return fmt.Errorf("legacy sent %.0f leader-election requests; the 2014 manager has no leader election", r["election_requests_during_idle"])
		}
	default:
		// Its controllers answer from their caches: no LIST, and
		// nothing to create or delete. Only its leader election is
		// heard, renewing the lease.
		if lists != 0 || r["pod_creates_during_idle"] != 0 || r["deletes_during_idle"] != 0 {
			return fmt.Errorf("modern sent %.0f LISTs, %.0f pod creates and %.0f deletes while idle, want none: its controllers read their caches",
				lists, r["pod_creates_during_idle"], r["deletes_during_idle"])
		}
		// Judged where requests are counted: a run without the meter on
		// today's stack, or of a cluster from outside, leaves them out.
		if n, counted := r["election_requests_during_idle"]; counted && n < 1 {
			return fmt.Errorf("modern's leader election sent nothing while idle, want its lease renewals")
		}
	}
	return nil
}

func startControllers(ctx context.Context, e *scenario.Env, m, k int) error {
	if e.Size.PodsFirst {
		return startControllersPodsFirst(ctx, e, m, k)
	}
	for i := 0; i < m; i++ {
		sel := map[string]string{"app": fmt.Sprintf("web-%d", i)}
		if err := e.CreateController(scenario.Controller(fmt.Sprintf("web-%d", i), k, sel, nil)); err != nil {
			return err
		}
	}
	return e.WaitRunning(ctx, m*k, scenario.ConvergeLimit(m*k))
}

// settleBetweenTicks waits until idle's window can start: once the
// manager has sent no status write, GET or POST for 3 s (the modern
// manager's last status writes and the 2014 client's last operation
// polls, every 2 s, come after the pods run), and half a period after a
// tick of the 2014 manager, seen as a LIST of its. A window
// of whole periods that starts between two ticks ends between two ticks,
// so it holds exactly its ticks' LISTs, and a tick delayed by a loaded
// machine does not slip across its edge. A manager that sends no LIST
// within a period (the modern one) is simply given the same wait.
func settleBetweenTicks(ctx context.Context, e *scenario.Env, period time.Duration) error {
	// The writes that follow a start-up: status writes and the GETs after
	// their conflicts, pod creates, and the 2014 client's polls. Under
	// load a modern manager of 1 000 pods was seen still writing statuses
	// long after they all ran, so the wait is for them to stop, up to a
	// limit, rather than a fixed time.
	writes := func() float64 {
		e.Sampler.SampleNow()
		rec := e.Sampler.Rec
		return rec.Last(sampler.ManagerPurpose+sampler.PurposeStatus) + rec.Last(sampler.ManagerRequests+"GET") + rec.Last(sampler.ManagerRequests+"POST")
	}
	if err := waitUnchanged(ctx, writes, 250*time.Millisecond, 3*time.Second, 2*time.Minute); err != nil {
		return err
	}
	// The 2014 apiserver fills in a controller's replicas on every watch
	// event of it by listing the controller's pods: at 100 000 pods each
	// event of the modern manager's last status writes costs a LIST of
	// every pod, and a window opened before they were all sent measured
	// that backlog (in one run at 100 000 pods the apiserver's CPU in the
	// window was nearly all those LISTs). So the window also waits until
	// the apiserver has sent no controller watch event for 5 s, more than
	// one such LIST takes.
	events := func() float64 {
		e.Sampler.SampleNow()
		return e.Sampler.Rec.Last(sampler.APIWatchEvents + "replicationControllers")
	}
	if err := waitUnchanged(ctx, events, 500*time.Millisecond, 5*time.Second, 2*time.Minute); err != nil {
		return err
	}
	lists := func() float64 {
		e.Sampler.SampleNow()
		return e.Sampler.Rec.Last(sampler.ManagerRequests + "LIST")
	}
	// A tick not seen within a period is no error: the half period is
	// then counted from the period's end.
	before := lists()
	_ = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, period, true, func(context.Context) (bool, error) {
		return lists() != before, nil
	})
	return scenario.Sleep(ctx, period/2)
}

// waitUnchanged polls value every interval until it has not changed for
// quiet, or limit passes; only ctx ending is an error.
func waitUnchanged(ctx context.Context, value func() float64, interval, quiet, limit time.Duration) error {
	last, since := value(), time.Now()
	_ = wait.PollUntilContextTimeout(ctx, interval, limit, false, func(context.Context) (bool, error) {
		if now := value(); now != last {
			last, since = now, time.Now()
		}
		return time.Since(since) >= quiet, nil
	})
	return ctx.Err()
}

// podsFirstClients is how many clients create a pods-first cluster's pods
// at once: the level at which the benchmark calibrates the apiserver's
// create rate.
const podsFirstClients = 64

// startControllersPodsFirst brings up m controllers of k running pods with
// no controller-manager doing the work: the benchmark creates the
// controllers while none runs, then, from podsFirstClients clients at once,
// the pods the variant's manager would have made for them — the 2014
// manager's carry its replicationController=<id> label, today's a
// ControllerRef to their controller — waits until the hollow nodes run
// them all, and only then starts the manager, which should find nothing to
// do. It returns once the manager has synced every controller and sent no
// pod create or delete.
//
// A sweep's idle uses it, so that standing still at a size is measured even
// where the design cannot scale up to that size, and a large idle point
// costs the time of its creates rather than of a manager's scale-up. What
// the window measures does not depend on who made the pods.
func startControllersPodsFirst(ctx context.Context, e *scenario.Env, m, k int) error {
	if len(e.Stack.ManagerList()) != 0 {
		return fmt.Errorf("a pods-first cluster must start without a controller-manager")
	}
	c, began := e.Client, time.Now()
	for i := 0; i < m; i++ {
		id := fmt.Sprintf("web-%d", i)
		rc, err := c.CreateReplicationController(api.NewDefaultContext(), scenario.Controller(id, k, map[string]string{"app": id}, nil))
		if err != nil {
			return err
		}
		if err := scenario.CreatePods(ctx, c, podOf(e.Variant.Design, rc), k, podsFirstClients); err != nil {
			return err
		}
	}
	e.Say("%d controllers and their %d pods created in %.1f s", m, m*k, time.Since(began).Seconds())
	if err := e.WaitRunning(ctx, m*k, scenario.ConvergeLimit(m*k)); err != nil {
		return err
	}
	e.Say("all %d pods running after %.1f s; starting the controller-manager", m*k, time.Since(began).Seconds())
	if _, err := e.Stack.StartManager(); err != nil {
		return fmt.Errorf("starting the controller-manager: %v", err)
	}
	e.Mark("manager-start")
	err := scenario.WaitFor(ctx, scenario.ConvergeLimit(m*k), fmt.Sprintf("the manager to sync its %d controllers", m), func() (bool, string) {
		e.Sampler.SampleNow()
		return syncedAll(e, m)
	})
	if err != nil {
		return err
	}
	e.Say("the manager synced its %d controllers after %.1f s", m, time.Since(began).Seconds())
	if posts, deletes := e.Last(sampler.ManagerPodPosts), e.Last(sampler.ManagerRequests+"DELETE"); posts != 0 || deletes != 0 {
		return fmt.Errorf("the manager created %.0f pods and deleted %.0f when it found its controllers' pods made for it: "+
			"they are not the pods it would have made", posts, deletes)
	}
	return nil
}

// podOf returns the pod a design's manager creates for rc.
func podOf(design string, rc *api.ReplicationController) api.Pod {
	labels := map[string]string{}
	for k, v := range rc.DesiredState.PodTemplate.Labels {
		labels[k] = v
	}
	pod := api.Pod{Labels: labels, DesiredState: rc.DesiredState.PodTemplate.DesiredState}
	if design == "modern" {
		yes := true
		pod.OwnerReferences = []api.OwnerReference{{APIVersion: api.Version, Kind: "ReplicationController", Name: rc.ID,
			UID: rc.UID, Controller: &yes, BlockOwnerDeletion: &yes}}
	} else {
		labels["replicationController"] = rc.ID
	}
	return pod
}
