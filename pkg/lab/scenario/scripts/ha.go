package scripts

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/faults"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Scenarios about more than one manager, a manager that restarts, and
// controllers and watches that step on each other.

var _ = described(80, twoManagers)

// twoManagers runs two managers on one controller, as high availability
// without a lock.
func twoManagers() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "two-managers",
		Figure:     "pod_creates",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureCreated, Label: "pods created"},
		Title:      "Two controller-managers on one controller",
		Reproduces: "high availability without a lock, as in 2014 (history: leader-election)",
		Explain: "Two controller-managers of the same design run against one apiserver, and a controller of N " +
			"is created. Both 2014 managers see the same deficit and both create it, then both delete the " +
			"surplus; the modern managers elect a leader and only it acts.",
		Full:    []scenario.Size{{Label: "N=20", Replicas: 20, Period: period2014, Window: 20 * time.Second}},
		Cluster: stack.Config{Nodes: 10, ControllerManagers: 2, StartDelay: 200 * time.Millisecond},
		// In the default run, twice: its window counts a race rather than
		// time, and its 20 creates stay under the client throttle's burst.
		Bench: &scenario.Bench{Default: true, Variants: scenario.LegacyAndModern, DefaultRuns: 2},
		Headline: []scenario.Headline{
			{Result: "extra_pods", Label: "extra pods"},
			{Result: "pod_deletes", Label: "pod deletes"},
		},
		Script: twoManagersScript{},
	}
}

type twoManagersScript struct{}

func (twoManagersScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: "Wait for both managers",
		Say: "Two controller-managers are running. The modern pair first elects a leader; the 2014 pair " +
			"has no such thing.",
		Run: func(ctx context.Context, e *scenario.Env) error { return scenario.Sleep(ctx, 3*time.Second) },
	}, {
		Title:  fmt.Sprintf("Create a controller of %d", sz.Replicas),
		Say:    fmt.Sprintf("One controller asks for %d pods. Count the pods created and watch the total.", sz.Replicas),
		Starts: true,
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("created")
			return e.CreateController(scenario.Controller("web", sz.Replicas, webSelector, nil))
		},
	}, {
		Title: fmt.Sprintf("Watch for %v", sz.Window),
		Say: "Both 2014 managers created the pods, so there are too many, and both then delete the " +
			"surplus — sometimes too many again. The modern pair holds exactly N.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := scenario.Sleep(ctx, sz.Window); err != nil {
				return err
			}
			// The modern pair must end at N, however long a busy
			// machine makes its election and its creates take; the
			// 2014 pair, or a modern one without its election, may
			// fight on, and is judged by what it did.
			if e.Variant.Design != scenario.Legacy.Design && !e.Variant.Without("leader-election") {
				if err := e.WaitActive(ctx, sz.Replicas, scenario.ConvergeLimit(sz.Replicas)); err != nil {
					return err
				}
			}
			e.Mark("end")
			return nil
		},
	}}
}

func (twoManagersScript) Results(e *scenario.Env) []scenario.Result {
	n := float64(e.Size.Replicas)
	return []scenario.Result{
		{Name: "pod_creates", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerPodPosts), LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: e.Last(sampler.PodsCreated) - n, LowerIsBetter: true},
		{Name: "max_active", Unit: "pods", Value: e.Sampler.Rec.Max(sampler.PodsActive), LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: e.Last(sampler.PodsActive)},
		{Name: "pod_deletes", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerRequests + "DELETE"), LowerIsBetter: true},
	}
}

func (twoManagersScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	n := float64(sz.Replicas)
	switch v.Design {
	case scenario.Legacy.Design:
		if r["pod_creates"] <= n && r["max_active"] <= n {
			return fmt.Errorf("legacy pair created %.0f pods for N=%.0f and never exceeded N: expected an overshoot or a fight", r["pod_creates"], n)
		}
	default:
		if r["pod_creates"] != n || r["extra_pods"] != 0 || r["max_active"] != n || r["final_active"] != n {
			return fmt.Errorf("modern pair: %.0f creates, %.0f extra pods, max %.0f, final %.0f; want exactly N=%.0f", r["pod_creates"], r["extra_pods"], r["max_active"], r["final_active"], n)
		}
	}
	return nil
}

var _ = described(90, restart)

// restart kills the manager halfway through a scale-up.
func restart() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "restart",
		Figure:     "extra_pods",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureExtra, Label: "extra pods"},
		Title:      "The controller-manager killed halfway through a scale-up",
		Reproduces: "a restarted manager acting before its cache is full (history: wait-for-caches)",
		Explain: "A controller of N is scaling up when its manager is killed with SIGKILL and started again; " +
			"from then on every LIST of pods takes 3 s longer, as on a big cluster. The 2014 manager is immune: it keeps no cache and lists pods from the apiserver on every sync. " +
			"The 2015 manager overshot because it acted before its pod cache had filled; today's waits for " +
			"its caches to sync and must create exactly N.",
		Full:    []scenario.Size{sizeN(1000)},
		Quick:   []scenario.Size{sizeN(200)},
		Cluster: oneManager(10),
		// In the default run, at its quick size: the standard one would
		// use up the time budget.
		Bench: &scenario.Bench{Default: true, Variants: scenario.LegacyAndModern, DefaultSizes: scenario.QuickSizes},
		Headline: []scenario.Headline{
			{Result: "extra_pods", Label: "extra pods"},
			{Result: "time_to_running", Label: "time to all running"},
		},
		Script: restartScript{},
	}
}

type restartScript struct{}

func (restartScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: fmt.Sprintf("Start scaling up to %d", sz.Replicas),
		Say:   "A controller of N is created and the manager starts creating pods.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("created")
			if err := e.CreateController(scenario.Controller("web", sz.Replicas, webSelector, nil)); err != nil {
				return err
			}
			return scenario.WaitFor(ctx, scenario.ConvergeLimit(sz.Replicas), "half of the pods created", func() (bool, string) {
				c := e.Sampler.Pods.Counts()
				return c.Active >= sz.Replicas/2, fmt.Sprintf("%d active", c.Active)
			})
		},
	}, {
		Title: "kill -9 the controller-manager, and start it again",
		Say: "Halfway there, the manager dies without a goodbye and a new one starts. Does the new one " +
			"count the pods already there, or create them again?",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Stack.KillManager(0, syscall.SIGKILL)
			e.Mark("killed")
			// Ours: from here to the end, every LIST of pods takes
			// slowPodList longer, as it does on a cluster of many
			// thousand pods; on loopback the restarted informers
			// would often fill their caches before the first sync
			// anyway, and the race would show or not by chance.
			// The 2014 manager pays it on each of its syncs, so its
			// time to running grows; its pod count does not change.
			if err := e.SetAPIFaults(slowPodLists()); err != nil {
				return err
			}
			return e.Stack.RestartManager(0)
		},
	}, {
		Title: "Wait until every pod runs",
		Say:   "Count the pods created in all: anything above N is an extra pod.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.WaitRunning(ctx, sz.Replicas, scenario.ConvergeLimit(sz.Replicas)); err != nil {
				return err
			}
			e.Mark("converged")
			if err := e.ClearAPIFaults(); err != nil {
				return err
			}
			return scenario.Sleep(ctx, 3*time.Second)
		},
	}}
}

func (restartScript) Results(e *scenario.Env) []scenario.Result {
	return []scenario.Result{
		{Name: "extra_pods", Unit: "pods", Value: e.Last(sampler.PodsCreated) - float64(e.Size.Replicas), LowerIsBetter: true},
		{Name: "time_to_running", Unit: "s", Value: e.Seconds("created", "converged"), LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: e.Last(sampler.PodsActive)},
	}
}

func (restartScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	if r["final_active"] != float64(sz.Replicas) {
		return fmt.Errorf("%.0f active pods at the end, want %d", r["final_active"], sz.Replicas)
	}
	if v.Design != scenario.Legacy.Design && r["extra_pods"] != 0 {
		return fmt.Errorf("modern created %.0f extra pods across the restart", r["extra_pods"])
	}
	return nil
}

var _ = described(110, overlap)

// overlap runs two controllers whose selectors overlap.
func overlap() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "overlap",
		Figure:     "deletes_during_overlap",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureDeleted, Label: "pods deleted", Step: 2},
		Title:      "Two controllers whose selectors overlap",
		Reproduces: "overlapping controllers fighting over pods (history: controller-ref)",
		Explain: "Controller a wants 3 pods and controller b wants 5, and both select app=web. The 2014 " +
			"managers count each other's pods: a deletes b's, b recreates them, on every tick. With " +
			"ControllerRef each modern controller counts only the pods it owns: 8 pods, stable.",
		Full:    []scenario.Size{{Label: "3+5", Replicas: 8, Period: period2014, Window: 30 * time.Second}},
		Cluster: oneManager(5),
		// A demonstration whose outcome is a yes or no, shown by make demo
		// and asserted by the tests: in no default run of make bench.
		Bench:  &scenario.Bench{Variants: scenario.LegacyAndModern},
		Script: overlapScript{},
	}
}

type overlapScript struct{}

func (overlapScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: "Create controller a (3 pods, app=web)",
		Say:   "The first controller comes up with its three pods.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.CreateController(scenario.Controller("a", 3, webSelector, map[string]string{"rc": "a"})); err != nil {
				return err
			}
			return e.WaitRunning(ctx, 3, scenario.ConvergeLimit(3))
		},
	}, {
		Title: "Create controller b (5 pods, also app=web)",
		Say: "A second controller selects the same pods. In 2014 each counts the other's: watch the " +
			"total and the deletes.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("overlap-start")
			if err := e.CreateController(scenario.Controller("b", 5, webSelector, map[string]string{"rc": "b"})); err != nil {
				return err
			}
			if err := scenario.Sleep(ctx, sz.Window); err != nil {
				return err
			}
			// The modern controllers must end at 3 and 5, however long
			// a busy machine makes b's creates take; the 2014 ones,
			// or modern ones without ControllerRef, fight on, and are
			// judged by their deletes.
			if e.Variant.Design != scenario.Legacy.Design && !e.Variant.Without("controller-ref") {
				err := scenario.WaitFor(ctx, scenario.ConvergeLimit(8), "3 pods of a and 5 of b", func() (bool, string) {
					a, errA := e.CountActive(map[string]string{"rc": "a"})
					b, errB := e.CountActive(map[string]string{"rc": "b"})
					if errA != nil || errB != nil {
						return false, fmt.Sprintf("listing pods: %v %v", errA, errB)
					}
					return a == 3 && b == 5, fmt.Sprintf("%d of a, %d of b", a, b)
				})
				if err != nil {
					return err
				}
			}
			e.Mark("overlap-end")
			return nil
		},
	}}
}

func (overlapScript) Results(e *scenario.Env) []scenario.Result {
	a, _ := e.CountActive(map[string]string{"rc": "a"})
	b, _ := e.CountActive(map[string]string{"rc": "b"})
	from := e.At("overlap-start")
	return []scenario.Result{
		{Name: "final_active", Unit: "pods", Value: e.Last(sampler.PodsActive)},
		{Name: "pods_of_a", Unit: "pods", Value: float64(a)},
		{Name: "pods_of_b", Unit: "pods", Value: float64(b)},
		{Name: "deletes_during_overlap", Process: sampler.ProcessManager, Unit: "requests", Value: e.Sampler.Rec.Between(sampler.ManagerRequests+"DELETE", from, 1e9), LowerIsBetter: true},
	}
}

func (overlapScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	switch v.Design {
	case scenario.Legacy.Design:
		if r["deletes_during_overlap"] == 0 {
			return fmt.Errorf("legacy controllers did not fight: no deletes while overlapping")
		}
	default:
		if r["pods_of_a"] != 3 || r["pods_of_b"] != 5 || r["deletes_during_overlap"] != 0 {
			return fmt.Errorf("modern: a has %.0f, b has %.0f, %.0f deletes; want 3, 5 and none", r["pods_of_a"], r["pods_of_b"], r["deletes_during_overlap"])
		}
	}
	return nil
}

// watchWindowTalkLength is watch-window's TalkLength: it has no
// recording in examples/talk, and the talk's README cites this length.
const watchWindowTalkLength = 23 * time.Second

var _ = described(130, watchWindow)

// watchWindow lets a watch fall out of etcd's event window.
func watchWindow() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "watch-window",
		Figure:     "resize_to_running",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureToRunning, Label: "resize to running", Unit: "s", Step: 3},
		Title:      "A watch that falls out of etcd's event window",
		Reproduces: "etcd-io/etcd#925 (etcd v2 remembers only its last 1 000 events; a watcher resuming from an older index gets an error and must relist)",
		Explain: "The managers' watches are cut, and while the 2014 manager waits a period before " +
			"watching again, more than 1 000 other writes go through etcd. It then resumes from a version " +
			"etcd has forgotten, gets a 410, and retries from the same version for ever: only its tick keeps " +
			"it working, so a resize waits for a tick. The modern informers relist and carry on.",
		Full:    []scenario.Size{sizeN(5)},
		Cluster: oneManager(5),
		// A demonstration whose outcome is a yes or no, shown by make demo
		// and asserted by the tests: in no default run of make bench.
		Bench:      &scenario.Bench{Variants: scenario.LegacyAndModern},
		TalkLength: watchWindowTalkLength,
		Script:     watchWindowScript{},
	}
}

type watchWindowScript struct{}

func (watchWindowScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: fmt.Sprintf("Start a controller of %d", sz.Replicas),
		Say:   "A small controller comes up and both managers are watching.",
		Run:   func(ctx context.Context, e *scenario.Env) error { return startWeb(ctx, e, sz.Replicas) },
	}, {
		Title: "Cut the watches, then write 1 200 times elsewhere",
		Say: "Every watch is cut; then 1 200 writes to an unrelated object push etcd's window of " +
			"1 000 events past the version the 2014 manager will resume from.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			before, err := managerWatchErrors(e)
			if err != nil {
				return err
			}
			if err := e.SetAPIFaults(map[string]string{"closeWatchesEvery": "1s"}); err != nil {
				return err
			}
			if err := scenario.Sleep(ctx, 1500*time.Millisecond); err != nil {
				return err
			}
			if e.Variant.Design != scenario.Legacy.Design {
				if err := e.ClearAPIFaults(); err != nil {
					return err
				}
				return churnWrites(ctx, e, 1200)
			}
			// The 2014 manager watches again a period after the cut.
			// On a busy machine the writes can take longer than that,
			// and a manager that resumed before they were through
			// showed nothing. So its watches stay cut until it has
			// resumed past the window: it keeps the version of its
			// last controller event, which nothing here changes, and
			// its first resume after the writes gets the 410. (Cut
			// every second, today's informers would back off from
			// short watches and miss the resize they must show.)
			if err := churnWrites(ctx, e, 1200); err != nil {
				return err
			}
			err = scenario.WaitFor(ctx, 4*sz.Period+time.Minute, "the 2014 manager's watch to resume past etcd's window", func() (bool, string) {
				n, err := managerWatchErrors(e)
				if err != nil {
					return false, err.Error()
				}
				return n > before, fmt.Sprintf("%.0f watch errors", n-before)
			})
			if err != nil {
				return err
			}
			return e.ClearAPIFaults()
		},
	}, {
		Title: fmt.Sprintf("Resize to %d", 2*sz.Replicas),
		Say: "Now the controller is resized. The modern manager reacts at once; the 2014 one, stuck on a " +
			"forgotten version, only reacts when a tick comes through.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("resized")
			if err := e.Resize(ctx, "web", 2*sz.Replicas); err != nil {
				return err
			}
			if err := e.WaitRunning(ctx, 2*sz.Replicas, scenario.ConvergeLimit(2*sz.Replicas)); err != nil {
				return err
			}
			e.Mark("converged")
			return nil
		},
	}}
}

func (watchWindowScript) Results(e *scenario.Env) []scenario.Result {
	return append([]scenario.Result{
		{Name: "resize_to_running", Unit: "s", Value: e.Seconds("resized", "converged"), LowerIsBetter: true},
		{Name: "manager_watches", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerRequests + "WATCH")},
		{Name: "manager_lists", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerRequests + "LIST")},
		{Name: "manager_watch_errors", Process: sampler.ProcessManager, Unit: "watches", Value: e.Last(sampler.ManagerWatchErrors)},
		// From the resize to its pods running: a LIST here would be a
		// relist, the resize read from it rather than from the watch.
		{Name: "lists_after_resize", Process: sampler.ProcessManager, Unit: "requests", Value: e.Between(sampler.ManagerRequests+"LIST", "resized", "converged")},
	}, e.WhyResults("after_resize", "resized", "converged")...)
}

func (watchWindowScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	switch v.Design {
	case scenario.Legacy.Design:
		// The point of the scenario: the 2014 manager resumed from
		// a version etcd had forgotten and was told so.
		if r["manager_watch_errors"] < 1 {
			return fmt.Errorf("legacy's watches never ended with an error, want at least one 410 from resuming past etcd's window")
		}
		// And so only its tick keeps it working: the resize reaches
		// it through a tick's LIST, never through its watch.
		if events, ok := r["event_syncs_after_resize"]; ok && (events != 0 || r["tick_syncs_after_resize"] < 1) {
			return fmt.Errorf("legacy ran %.0f syncs on watch events and %.0f on ticks from the resize to its pods running, want none on its watch, stuck on a forgotten version, and the resize carried out by a tick",
				events, r["tick_syncs_after_resize"])
		}
	default:
		// The informers relisted when the watch fell out of the window,
		// before the resize; the resize itself must come over the
		// watch, and the pods it asks for from the syncs that event
		// started.
		if r["lists_after_resize"] != 0 {
			return fmt.Errorf("modern listed %.0f times from the resize to its pods running, want the resize seen on its watch, with no relist", r["lists_after_resize"])
		}
		if events, ok := r["event_creates_after_resize"]; ok && (events < 1 || r["other_creates_after_resize"] != 0) {
			return fmt.Errorf("modern created %.0f pods on syncs an informer event started and %.0f on others (a resync, a retry) after the resize, want every one on the event of the resize",
				events, r["other_creates_after_resize"])
		}
	}
	return nil
}

// slowPodList is how much longer a LIST of pods takes after the restart.
// It is far longer than a restarted manager takes from listing its
// controllers to its first sync, and far shorter than a scale-up.
const slowPodList = 3 * time.Second

// slowPodLists delays every LIST of pods by slowPodList.
func slowPodLists() faults.Config {
	return faults.Config{Latency: []faults.LatencyRule{{Verb: "LIST", Resource: "pods", Latency: faults.Duration(slowPodList)}}}
}

// managerWatchErrors is the number of the controller-managers' watches
// that the apiserver has ended with an ERROR event.
func managerWatchErrors(e *scenario.Env) (float64, error) {
	m, err := sampler.Scrape(e.Stack.APIURL + "/metrics")
	if err != nil {
		return 0, err
	}
	return m.Sum("apiserver_watch_errors_total", map[string]string{"component": "controller-manager"}), nil
}

// churnWrites updates scratch services n times in all, so that etcd's
// event window moves on. Several writers share the work, so that it is
// over sooner.
func churnWrites(ctx context.Context, e *scenario.Env, n int) error {
	const writers = 8
	c := api.NewDefaultContext()
	errs := make(chan error, writers)
	for w := 0; w < writers; w++ {
		share := n / writers
		if w < n%writers {
			share++
		}
		go func(w, share int) {
			svc := &api.Service{TypeMeta: api.TypeMeta{ID: fmt.Sprintf("scratch-%d", w)}, Port: 9, Selector: map[string]string{"app": "nothing"}}
			created, err := e.Client.CreateService(c, svc)
			for i := 0; err == nil && i < share; i++ {
				if err = ctx.Err(); err == nil {
					created.Labels = map[string]string{"write": fmt.Sprint(i)}
					created, err = e.Client.UpdateService(c, created)
				}
			}
			errs <- err
		}(w, share)
	}
	var first error
	for w := 0; w < writers; w++ {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}
