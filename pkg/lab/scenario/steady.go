package scenario

import (
	"context"
	"fmt"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/faults"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Scenarios about a cluster that should be quiet, or that is being hurt.

func startControllers(ctx context.Context, e *Env, m, k int) error {
	if e.Size.PodsFirst {
		return startControllersPodsFirst(ctx, e, m, k)
	}
	for i := 0; i < m; i++ {
		sel := map[string]string{"app": fmt.Sprintf("web-%d", i)}
		if err := e.CreateController(Controller(fmt.Sprintf("web-%d", i), k, sel, nil)); err != nil {
			return err
		}
	}
	return e.WaitRunning(ctx, m*k, convergeLimit(m*k))
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
func settleBetweenTicks(ctx context.Context, e *Env, period time.Duration) error {
	// The writes that follow a start-up: status writes and the GETs after
	// their conflicts, pod creates, and the 2014 client's polls. Under
	// load a modern manager of 1 000 pods was seen still writing statuses
	// a minute after they all ran, so the wait is for them to stop, up to
	// a limit, rather than a fixed time.
	writes := func() float64 {
		e.Sampler.SampleNow()
		rec := e.Sampler.Rec
		return rec.Last(sampler.ManagerPurpose+sampler.PurposeStatus) + rec.Last(sampler.ManagerRequests+"GET") + rec.Last(sampler.ManagerRequests+"POST")
	}
	last, quietSince := writes(), time.Now()
	for limit := time.Now().Add(2 * time.Minute); time.Since(quietSince) < 3*time.Second && time.Now().Before(limit); {
		if err := Sleep(ctx, 250*time.Millisecond); err != nil {
			return err
		}
		if now := writes(); now != last {
			last, quietSince = now, time.Now()
		}
	}
	// The 2014 apiserver fills in a controller's replicas on every watch
	// event of it by listing the controller's pods: at 100 000 pods each
	// event of the modern manager's last status writes costs a LIST of
	// every pod, and a window opened before they were all sent measured
	// that backlog (15.7 CPU s in the minute of one run at 100 000 pods,
	// nearly all of it those LISTs). So the window also waits until the
	// apiserver has sent no controller watch event for 5 s, more than one
	// such LIST takes.
	events := func() float64 {
		e.Sampler.SampleNow()
		return e.Sampler.Rec.Last(sampler.APIWatchEvents + "replicationControllers")
	}
	lastEvents, eventsSince := events(), time.Now()
	for limit := time.Now().Add(2 * time.Minute); time.Since(eventsSince) < 5*time.Second && time.Now().Before(limit); {
		if err := Sleep(ctx, 500*time.Millisecond); err != nil {
			return err
		}
		if now := events(); now != lastEvents {
			lastEvents, eventsSince = now, time.Now()
		}
	}
	lists := func() float64 {
		e.Sampler.SampleNow()
		return e.Sampler.Rec.Last(sampler.ManagerRequests + "LIST")
	}
	before := lists()
	deadline := time.Now().Add(period)
	for time.Now().Before(deadline) && lists() == before {
		if err := Sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return Sleep(ctx, period/2)
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
func startControllersPodsFirst(ctx context.Context, e *Env, m, k int) error {
	if len(e.Stack.ManagerList()) != 0 {
		return fmt.Errorf("a pods-first cluster must start without a controller-manager")
	}
	c, began := e.Client, time.Now()
	for i := 0; i < m; i++ {
		id := fmt.Sprintf("web-%d", i)
		rc, err := c.CreateReplicationController(api.NewDefaultContext(), Controller(id, k, map[string]string{"app": id}, nil))
		if err != nil {
			return err
		}
		if err := CreatePods(ctx, c, podOf(e.Variant.Design, rc), k, podsFirstClients); err != nil {
			return err
		}
	}
	e.Say("%d controllers and their %d pods created in %.1f s", m, m*k, time.Since(began).Seconds())
	if err := e.WaitRunning(ctx, m*k, convergeLimit(m*k)); err != nil {
		return err
	}
	e.Say("all %d pods running after %.1f s; starting the controller-manager", m*k, time.Since(began).Seconds())
	if _, err := e.Stack.StartManager(); err != nil {
		return fmt.Errorf("starting the controller-manager: %v", err)
	}
	e.Mark("manager-start")
	err := WaitFor(ctx, convergeLimit(m*k), fmt.Sprintf("the manager to sync its %d controllers", m), func() (bool, string) {
		e.Sampler.SampleNow()
		return e.syncedAll(m)
	})
	if err != nil {
		return err
	}
	e.Say("the manager synced its %d controllers after %.1f s", m, time.Since(began).Seconds())
	if posts, deletes := e.last(sampler.ManagerPodPosts), e.last(sampler.ManagerRequests+"DELETE"); posts != 0 || deletes != 0 {
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

func failPodPosts(fraction float64) faults.Config {
	return faults.Config{Fail: []faults.FailRule{{Verb: "POST", Resource: "pods", Fraction: fraction, Code: 500}}}
}

func init() {
	Register(&Scenario{
		Name:       "idle",
		Figure:     "lists_per_min",
		Title:      "An idle cluster: what the managers ask for when nothing happens",
		Reproduces: "the LISTs of idle managers, a large share of the apiserver's work in 2015 (history: pod-informer, endpoints-informer)",
		Explain: "M controllers of k running pods, then a quiet window. Every 10 s the 2014 manager lists " +
			"all controllers and, per controller, its pods — 6·(1 + M) LISTs a minute — and the endpoints " +
			"controller lists the services. The modern manager's controllers answer from their caches and send " +
			"about nothing; its leader election renews its lease every 2 s, about 30 requests a minute, counted " +
			"apart.",
		Sizes: func(quick, large bool) []Size {
			sz := Size{Label: "M=10,k=10", Controllers: 10, Replicas: 10, Period: period2014, Window: 2 * time.Minute}
			if quick {
				sz.Window = 30 * time.Second
			}
			return []Size{sz}
		},
		Cluster: func(sz Size) stack.Config {
			cfg := oneManager(10)(sz)
			if sz.PodsFirst {
				// Started once the pods run.
				cfg.ControllerManagers = 0
			}
			return cfg
		},
		Intervals: sampler.Intervals{Pods: 500 * time.Millisecond, APIServer: time.Second, Managers: time.Second},
		Steps: func(sz Size) []Step {
			start := Step{
				Title: fmt.Sprintf("Start %d controllers of %d pods", sz.Controllers, sz.Replicas),
				Say:   "The controllers come up. Nothing will change after this.",
				Run: func(ctx context.Context, e *Env) error {
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
			return []Step{start, {
				Title: fmt.Sprintf("Do nothing for %v", sz.Window),
				Say: "Nothing changes now. Watch the request counters: the 2014 manager still lists every " +
					"controller and its pods on every tick; the modern one's controllers are silent, and only its " +
					"leader election renews its lease, a PUT every 2 s.",
				Run: func(ctx context.Context, e *Env) error {
					e.Mark("idle-start")
					if err := Sleep(ctx, sz.Window); err != nil {
						return err
					}
					e.Mark("idle-end")
					return nil
				},
			}}
		},
		Results: func(e *Env) []Result {
			cpuStart := e.Sampler.Rec.Between(sampler.ManagerCPU, 0, e.At("idle-start"))
			cpuEnd := e.Sampler.Rec.Between(sampler.ManagerCPU, 0, e.At("idle-end"))
			minutes := e.Seconds("idle-start", "idle-end") / 60
			purpose := func(p string) float64 { return e.perMinute(sampler.ManagerPurpose+p, "idle-start", "idle-end") }
			cm := func(name string, v float64) Result {
				return Result{Name: name, Process: sampler.ProcessManager, Unit: "req/min", Value: v, LowerIsBetter: true}
			}
			return []Result{
				// Every request of the controller-manager process: its
				// controllers' and its leader election's.
				cm("requests_per_min", e.managerRequestsPerMinute("idle-start", "idle-end")),
				cm("sync_requests_per_min", purpose(sampler.PurposeSync)),
				cm("lists_per_min", e.perMinute(sampler.ManagerRequests+"LIST", "idle-start", "idle-end")),
				cm("gets_per_min", e.perMinute(sampler.ManagerRequests+"GET", "idle-start", "idle-end")),
				cm("status_writes_per_min", purpose(sampler.PurposeStatus)),
				cm("election_requests_per_min", purpose(sampler.PurposeElection)),
				cm("events_per_min", purpose(sampler.PurposeEvents)),
				// The same requests' bodies, both ways, as the apiserver
				// read and wrote them, lease renewals included.
				{Name: "bytes_per_min", Process: sampler.ProcessManager, Unit: "kB/min", Value: e.perMinute(sampler.ManagerBytes, "idle-start", "idle-end") / 1000, LowerIsBetter: true},
				{Name: "cpu_per_min", Process: sampler.ProcessManager, Unit: "CPU s/min", Value: (cpuEnd - cpuStart) / minutes, LowerIsBetter: true},
				{Name: "apiserver_cpu_per_min", Process: sampler.ProcessAPIServer, Unit: "CPU s/min", Value: e.perMinute(sampler.APIServerCPU, "idle-start", "idle-end"), LowerIsBetter: true},
				// What the manager holds at rest: its caches, in the
				// modern design, are most of it.
				{Name: "manager_rss", Process: sampler.ProcessManager, Unit: "MiB", Value: e.Sampler.Rec.Last(sampler.ManagerRSS) / (1 << 20), LowerIsBetter: true},
				{Name: "goroutines", Process: sampler.ProcessManager, Unit: "goroutines", Value: e.Sampler.Rec.Last(sampler.ManagerGoroutines), LowerIsBetter: true},
			}
		},
		Expect: func(variant string, sz Size, r map[string]float64) error {
			// Ticks per minute at the period the cluster ran with.
			ticks := time.Minute.Seconds() / sz.Period.Seconds()
			want := ticks * float64(1+sz.Controllers)
			switch variant {
			case "legacy":
				if r["lists_per_min"] < 0.7*want {
					return fmt.Errorf("legacy sent %.1f LISTs a minute, want about %.0f or more", r["lists_per_min"], want)
				}
				if r["election_requests_per_min"] != 0 {
					return fmt.Errorf("legacy sent %.1f leader-election requests a minute; the 2014 manager has no leader election", r["election_requests_per_min"])
				}
			default:
				if r["sync_requests_per_min"] > 3 {
					return fmt.Errorf("modern's controllers sent %.1f requests a minute while idle, want about none", r["sync_requests_per_min"])
				}
				// A renewal every 2 s (the retry period) is 30 a minute.
				if e := r["election_requests_per_min"]; e < 10 || e > 90 {
					return fmt.Errorf("modern sent %.1f leader-election requests a minute while idle, want about 30 (a lease renewal every 2 s)", e)
				}
			}
			return nil
		},
	})

	Register(&Scenario{
		Name:       "churn",
		Figure:     "replacement_p50",
		Title:      "Pods dying at a steady rate: how fast is each replaced?",
		Reproduces: "the 2014 manager did not watch pods (history: pod-informer)",
		Explain: "The hollow nodes delete running pods at r per second. The 2014 manager only notices at its " +
			"next 10 s tick, so a replacement takes up to a period; the modern one sees the deletion on its " +
			"pod watch and replaces the pod at once.",
		Sizes: func(quick, large bool) []Size {
			sz := Size{Label: "N=100,r=2/s", Replicas: 100, Rate: 2, Period: period2014, Window: time.Minute}
			if quick {
				sz.Window = 20 * time.Second
			}
			return []Size{sz}
		},
		Cluster: oneManager(10),
		Steps: func(sz Size) []Step {
			return []Step{{
				Title: fmt.Sprintf("Start a controller of %d", sz.Replicas),
				Say:   "The controller and its pods come up.",
				Run: func(ctx context.Context, e *Env) error {
					if err := e.CreateController(Controller("web", sz.Replicas, webSelector, nil)); err != nil {
						return err
					}
					return e.WaitRunning(ctx, sz.Replicas, convergeLimit(sz.Replicas))
				},
			}, {
				Title: fmt.Sprintf("Kill %.0f pods a second for %v", sz.Rate, sz.Window),
				Say: "Now pods die at a steady rate. Watch the running count dip: it dips further, and longer, " +
					"when the manager only looks every ten seconds.",
				Run: func(ctx context.Context, e *Env) error {
					if err := e.SetChurn(sz.Rate); err != nil {
						return err
					}
					e.Mark("churn-start")
					err := Sleep(ctx, sz.Window)
					e.Mark("churn-end")
					if cerr := e.SetChurn(0); err == nil {
						err = cerr
					}
					return err
				},
			}, {
				Title: "Stop killing and let it settle",
				Say:   "The killing stops; every design must return to N running pods.",
				Run: func(ctx context.Context, e *Env) error {
					return e.WaitRunning(ctx, sz.Replicas, convergeLimit(sz.Replicas))
				},
			}}
		},
		Results: func(e *Env) []Result {
			lat := e.Sampler.Pods.ReplacementLatencies()
			minRunning := float64(e.Size.Replicas)
			a, b := e.At("churn-start"), e.At("churn-end")
			for _, p := range e.Sampler.Rec.Series(sampler.PodsRunning) {
				if p.T >= a && p.T <= b && p.V < minRunning {
					minRunning = p.V
				}
			}
			return []Result{
				{Name: "replacement_p50", Unit: "s", Value: percentile(lat, 50), LowerIsBetter: true},
				{Name: "replacement_p99", Unit: "s", Value: percentile(lat, 99), LowerIsBetter: true},
				{Name: "replacements", Unit: "pods", Value: float64(len(lat))},
				{Name: "min_running", Unit: "pods", Value: minRunning},
			}
		},
		Expect: func(variant string, sz Size, r map[string]float64) error {
			if r["replacements"] < 3 {
				return fmt.Errorf("%s replaced %.0f killed pods, want at least 3 to judge by", variant, r["replacements"])
			}
			period := sz.Period.Seconds()
			switch variant {
			case "legacy":
				// A kill lands anywhere between two ticks, so the
				// replacements wait from nothing to a whole period; the
				// slowest of several waits most of one.
				if r["replacement_p99"] < period/4 {
					return fmt.Errorf("legacy replaced every pod within %.2f s, want the slowest to wait for a tick (a quarter of the %.0f s period or more)", r["replacement_p99"], period)
				}
			default:
				if r["replacement_p50"] >= period/2 {
					return fmt.Errorf("modern took %.2f s to replace half the pods, want it to act on the pod watch, well within the %.0f s period", r["replacement_p50"], period)
				}
			}
			return nil
		},
	})

	Register(&Scenario{
		Name:       "api-errors",
		Figure:     "posts_per_min_during_fault",
		Title:      "Pod creation rejected: 10 % of POSTs fail, then all of them for a while",
		Reproduces: "a controller that does not back off when pod creation is denied (history: rate-limited-requeue, slow-start)",
		Explain: "First one pod POST in ten fails while a controller scales up; then every pod POST fails for " +
			"a window while it is asked for N more. The 2014 manager resends every missing pod on every tick, " +
			"for ever; the modern one sends one request per attempt (slow start) and backs off exponentially.",
		Sizes: func(quick, large bool) []Size {
			sz := Size{Label: "N=50", Replicas: 50, Period: period2014, Window: time.Minute}
			if quick {
				sz.Window = 20 * time.Second
			}
			return []Size{sz}
		},
		Cluster: oneManager(10),
		Steps: func(sz Size) []Step {
			return []Step{{
				Title: "Fail 10 % of pod POSTs while scaling up",
				Say:   "One pod create in ten is rejected by the apiserver. Both designs get there; count the attempts.",
				Run: func(ctx context.Context, e *Env) error {
					if err := e.SetAPIFaults(failPodPosts(0.1)); err != nil {
						return err
					}
					if err := e.CreateController(Controller("web", sz.Replicas, webSelector, nil)); err != nil {
						return err
					}
					return e.WaitRunning(ctx, sz.Replicas, convergeLimit(sz.Replicas))
				},
			}, {
				Title: fmt.Sprintf("Fail every pod POST for %v while asking for %d more", sz.Window, sz.Replicas),
				Say: "Now every pod create is rejected, as a quota would. Watch the POST rate: the 2014 manager " +
					"retries every missing pod on every tick; the modern one backs off.",
				Run: func(ctx context.Context, e *Env) error {
					if err := e.SetAPIFaults(failPodPosts(1)); err != nil {
						return err
					}
					e.Mark("fault-start")
					if err := e.Resize(ctx, "web", 2*sz.Replicas); err != nil {
						return err
					}
					err := Sleep(ctx, sz.Window)
					e.Mark("fault-end")
					return err
				},
			}, {
				Title: "Stop failing and converge",
				Say:   "The fault is cleared. How long until all pods run? Backoff can make the modern design wait.",
				Run: func(ctx context.Context, e *Env) error {
					if err := e.ClearAPIFaults(); err != nil {
						return err
					}
					e.Mark("fault-cleared")
					if err := e.WaitRunning(ctx, 2*sz.Replicas, convergeLimit(2*sz.Replicas)+20*time.Minute); err != nil {
						return err
					}
					e.Mark("converged")
					return nil
				},
			}}
		},
		Results: func(e *Env) []Result {
			return []Result{
				{Name: "posts_per_min_during_fault", Process: sampler.ProcessManager, Unit: "req/min", Value: e.perMinute(sampler.ManagerPodPosts, "fault-start", "fault-end"), LowerIsBetter: true},
				{Name: "requests_per_min_during_fault", Process: sampler.ProcessManager, Unit: "req/min", Value: e.managerRequestsPerMinute("fault-start", "fault-end"), LowerIsBetter: true},
				{Name: "time_to_converge_after_fault", Unit: "s", Value: e.Seconds("fault-cleared", "converged"), LowerIsBetter: true},
				{Name: "pod_creates", Process: sampler.ProcessManager, Unit: "requests", Value: e.last(sampler.ManagerPodPosts), LowerIsBetter: true},
			}
		},
		Expect: func(variant string, sz Size, r map[string]float64) error {
			perTick := float64(sz.Replicas)
			ticks := time.Minute.Seconds() / sz.Period.Seconds()
			switch variant {
			case "legacy":
				if r["posts_per_min_during_fault"] < 0.5*perTick*ticks {
					return fmt.Errorf("legacy sent %.0f pod POSTs a minute during the fault, want about %.0f (N every tick)", r["posts_per_min_during_fault"], perTick*ticks)
				}
			default:
				// Slow start sends one create per attempt and the rate
				// limiter retries after 5 ms, 10 ms, 20 ms, ...: about ten
				// attempts in the first five seconds whatever N is, then
				// ever fewer. Over a short window that is still far below
				// the 2014 rate of N every tick.
				if r["posts_per_min_during_fault"] > 0.25*perTick*ticks {
					return fmt.Errorf("modern sent %.0f pod POSTs a minute during the fault, want it backing off (well under the 2014 rate of %.0f)", r["posts_per_min_during_fault"], perTick*ticks)
				}
			}
			return nil
		},
	})

	Register(&Scenario{
		Name:       "watch-drop",
		Figure:     "manager_lists",
		Title:      "Watches cut every few seconds during a scale-up",
		Reproduces: "kubernetes/kubernetes#6770 (thundering herds of relists when watches reconnect)",
		Explain: "The apiserver closes every watch stream every 3 s while a controller scales up. The 2014 " +
			"manager waits a whole period before watching again and relies on its tick; the modern informers " +
			"re-watch from their last resourceVersion at once.",
		Sizes: func(quick, large bool) []Size { return sizesN(quick, false, 200) },
		Cluster: func(sz Size) stack.Config {
			cfg := oneManager(10)(sz)
			cfg.APIServerArgs = []string{"-close_watches_every=3s"}
			return cfg
		},
		Steps: func(sz Size) []Step {
			return []Step{{
				Title: fmt.Sprintf("Scale up to %d with watches cut every 3 s", sz.Replicas),
				Say:   "Every watch stream is closed by the apiserver every three seconds. Count the re-watches and the relists.",
				Run: func(ctx context.Context, e *Env) error {
					e.Mark("created")
					if err := e.CreateController(Controller("web", sz.Replicas, webSelector, nil)); err != nil {
						return err
					}
					if err := e.WaitRunning(ctx, sz.Replicas, convergeLimit(sz.Replicas)); err != nil {
						return err
					}
					e.Mark("converged")
					return Sleep(ctx, 10*time.Second)
				},
			}}
		},
		Results: func(e *Env) []Result {
			return []Result{
				{Name: "time_to_running", Unit: "s", Value: e.Seconds("created", "converged"), LowerIsBetter: true},
				{Name: "manager_watches", Process: sampler.ProcessManager, Unit: "requests", Value: e.last(sampler.ManagerRequests + "WATCH")},
				{Name: "manager_lists", Process: sampler.ProcessManager, Unit: "requests", Value: e.last(sampler.ManagerRequests + "LIST"), LowerIsBetter: true},
				{Name: "extra_pods", Unit: "pods", Value: e.last(sampler.PodsCreated) - float64(e.Size.Replicas), LowerIsBetter: true},
			}
		},
		Expect: func(variant string, sz Size, r map[string]float64) error {
			if variant != "legacy" && r["extra_pods"] != 0 {
				return fmt.Errorf("modern created %.0f extra pods", r["extra_pods"])
			}
			return nil
		},
	})
}
