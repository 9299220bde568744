package scripts

import (
	"context"
	"fmt"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/faults"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// Scenarios about a cluster that is being hurt.

func failPodPosts(fraction float64) faults.Config {
	return faults.Config{Fail: []faults.FailRule{{Verb: "POST", Resource: "pods", Fraction: fraction, Code: 500}}}
}

var _ = described(50, churn)

// churn kills pods at a steady rate.
func churn() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "churn",
		Figure:     "replacement_p50",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureReplacement, Label: "replacement, median", Unit: "s"},
		Title:      "Pods dying at a steady rate: how fast is each replaced?",
		Reproduces: "the 2014 manager did not watch pods (history: pod-informer)",
		Explain: "The hollow nodes delete running pods at r per second. The 2014 manager only notices at its " +
			"next 10 s tick, so a replacement takes up to a period; the modern one sees the deletion on its " +
			"pod watch and replaces the pod at once.",
		Full:    []scenario.Size{{Label: "N=100,r=2/s", Replicas: 100, Rate: 2, Period: period2014, Window: time.Minute}},
		Quick:   []scenario.Size{{Label: "N=100,r=2/s", Replicas: 100, Rate: 2, Period: period2014, Window: 20 * time.Second}},
		Cluster: oneManager(10),
		Script:  churnScript{},
	}
}

type churnScript struct{}

func (churnScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: fmt.Sprintf("Start a controller of %d", sz.Replicas),
		Say:   "The controller and its pods come up.",
		Run:   func(ctx context.Context, e *scenario.Env) error { return startWeb(ctx, e, sz.Replicas) },
	}, {
		Title: fmt.Sprintf("Kill %.0f pods a second for %v", sz.Rate, sz.Window),
		Say: "Now pods die at a steady rate. Watch the running count dip: it dips further, and longer, " +
			"when the manager only looks every ten seconds.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.SetChurn(sz.Rate); err != nil {
				return err
			}
			e.Mark("churn-start")
			err := scenario.Sleep(ctx, sz.Window)
			e.Mark("churn-end")
			if cerr := e.SetChurn(0); err == nil {
				err = cerr
			}
			return err
		},
	}, {
		Title: "Stop killing and let it settle",
		Say:   "The killing stops; every design must return to N running pods.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			return e.WaitRunning(ctx, sz.Replicas, scenario.ConvergeLimit(sz.Replicas))
		},
	}}
}

func (churnScript) Results(e *scenario.Env) []scenario.Result {
	lat := seconds(e.Sampler.Pods.ReplacementLatencies())
	minRunning := float64(e.Size.Replicas)
	a, b := e.At("churn-start"), e.At("churn-end")
	for _, p := range e.Sampler.Rec.Series(sampler.PodsRunning) {
		if p.T >= a && p.T <= b && p.V < minRunning {
			minRunning = p.V
		}
	}
	return append([]scenario.Result{
		{Name: "replacement_p50", Unit: "s", Value: stats.Percentile(lat, 50), LowerIsBetter: true},
		{Name: "replacement_p99", Unit: "s", Value: stats.Percentile(lat, 99), LowerIsBetter: true},
		{Name: "replacements", Unit: "pods", Value: float64(len(lat))},
		{Name: "min_running", Unit: "pods", Value: minRunning},
		{Name: "posts_during_churn", Process: sampler.ProcessManager, Unit: "requests", Value: e.Between(sampler.ManagerPodPosts, "churn-start", "churn-end")},
		// A LIST while pods die would be a relist: the deaths read
		// from it rather than from the pod watch.
		{Name: "lists_during_churn", Process: sampler.ProcessManager, Unit: "requests", Value: e.Between(sampler.ManagerRequests+"LIST", "churn-start", "churn-end")},
	}, e.WhyResults("during_churn", "churn-start", "churn-end")...)
}

func (churnScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	if r["replacements"] < 3 {
		return fmt.Errorf("%s replaced %.0f killed pods, want at least 3 to judge by", v.Name, r["replacements"])
	}
	if r["posts_during_churn"] < 1 {
		return fmt.Errorf("%s created no pod while pods died, want replacements made during the churn", v.Name)
	}
	switch v.Design {
	case scenario.Legacy.Design:
		// It does not watch pods: only a tick's LIST shows it one
		// gone, and its watch of controllers has nothing to say.
		if events, ok := r["event_syncs_during_churn"]; ok && (events != 0 || r["tick_syncs_during_churn"] < 1) {
			return fmt.Errorf("legacy ran %.0f syncs on watch events and %.0f on ticks while pods died, want every replacement made by a tick",
				events, r["tick_syncs_during_churn"])
		}
	default:
		// Each death comes over the pod watch, not from a relist, and
		// the replacement from the sync that event started.
		if r["lists_during_churn"] != 0 {
			return fmt.Errorf("modern listed %.0f times while pods died, want its caches kept by its watches, with no relist", r["lists_during_churn"])
		}
		if events, ok := r["event_creates_during_churn"]; ok && (events < 1 || r["other_creates_during_churn"] != 0) {
			return fmt.Errorf("modern created %.0f pods on syncs an informer event started and %.0f on others (a resync, a retry) while pods died, want every replacement made on an event",
				events, r["other_creates_during_churn"])
		}
	}
	return nil
}

var _ = described(60, apiErrors)

// apiErrors rejects pod creation.
func apiErrors() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "api-errors",
		Figure:     "posts_per_min_during_fault",
		Live:       scenario.LiveFigure{Measure: scenario.MeasurePostsPerMin, Label: "pod POSTs a minute", Step: 2},
		Title:      "Pod creation rejected: 10 % of POSTs fail, then all of them for a while",
		Reproduces: "a controller that does not back off when pod creation is denied (history: rate-limited-requeue, slow-start)",
		Explain: "First one pod POST in ten fails while a controller scales up; then every pod POST fails for " +
			"a window while it is asked for N more. The 2014 manager resends every missing pod on every tick, " +
			"for ever; the modern one sends one request per attempt (slow start) and backs off exponentially.",
		Full:    []scenario.Size{{Label: "N=50", Replicas: 50, Period: period2014, Window: time.Minute}},
		Quick:   []scenario.Size{{Label: "N=50", Replicas: 50, Period: period2014, Window: 20 * time.Second}},
		Cluster: oneManager(10),
		Script:  apiErrorsScript{},
	}
}

type apiErrorsScript struct{}

func (apiErrorsScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: "Fail 10 % of pod POSTs while scaling up",
		Say:   "One pod create in ten is rejected by the apiserver. Both designs get there; count the attempts.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.SetAPIFaults(failPodPosts(0.1)); err != nil {
				return err
			}
			return startWeb(ctx, e, sz.Replicas)
		},
	}, {
		Title: fmt.Sprintf("Fail every pod POST for %v while asking for %d more", sz.Window, sz.Replicas),
		Say: "Now every pod create is rejected, as a quota would. Watch the POST rate: the 2014 manager " +
			"retries every missing pod on every tick; the modern one backs off.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.SetAPIFaults(failPodPosts(1)); err != nil {
				return err
			}
			e.Mark("fault-start")
			if err := e.Resize(ctx, "web", 2*sz.Replicas); err != nil {
				return err
			}
			err := scenario.Sleep(ctx, sz.Window)
			e.Mark("fault-end")
			return err
		},
	}, {
		Title: "Stop failing and converge",
		Say:   "The fault is cleared. How long until all pods run? Backoff can make the modern design wait.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			if err := e.ClearAPIFaults(); err != nil {
				return err
			}
			e.Mark("fault-cleared")
			if err := e.WaitRunning(ctx, 2*sz.Replicas, scenario.ConvergeLimit(2*sz.Replicas)+20*time.Minute); err != nil {
				return err
			}
			e.Mark("converged")
			return nil
		},
	}}
}

func (apiErrorsScript) Results(e *scenario.Env) []scenario.Result {
	out := []scenario.Result{
		{Name: "posts_per_min_during_fault", Process: sampler.ProcessManager, Unit: "req/min", Value: e.PerMinute(sampler.ManagerPodPosts, "fault-start", "fault-end"), LowerIsBetter: true},
		{Name: "requests_per_min_during_fault", Process: sampler.ProcessManager, Unit: "req/min", Value: e.ManagerRequestsPerMinute("fault-start", "fault-end"), LowerIsBetter: true},
		{Name: "time_to_converge_after_fault", Unit: "s", Value: e.Seconds("fault-cleared", "converged"), LowerIsBetter: true},
		{Name: "pod_creates", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerPodPosts), LowerIsBetter: true},
		{Name: "posts_during_fault", Process: sampler.ProcessManager, Unit: "requests", Value: e.Between(sampler.ManagerPodPosts, "fault-start", "fault-end"), LowerIsBetter: true},
	}
	// Counted by the managers themselves, where they count, in one
	// scrape: their creates set against their syncs.
	if len(e.Sampler.Rec.Series(sampler.ManagerSyncs)) > 0 && len(e.Sampler.Rec.Series(sampler.ManagerCreates)) > 0 {
		out = append(out,
			scenario.Result{Name: "syncs_during_fault", Process: sampler.ProcessManager, Unit: "syncs", Value: e.Between(sampler.ManagerSyncs, "fault-start", "fault-end")},
			scenario.Result{Name: "creates_during_fault", Process: sampler.ProcessManager, Unit: "creates", Value: e.Between(sampler.ManagerCreates, "fault-start", "fault-end"), LowerIsBetter: true})
	}
	out = append(out, e.TicksResult("ticks_during_fault", "fault-start", "fault-end")...)
	return append(out, e.WhyResults("during_fault", "fault-start", "fault-end")...)
}

func (apiErrorsScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	n := float64(sz.Replicas)
	posts := r["posts_during_fault"]
	// The managers' own counts, where they keep them: both read in one
	// scrape, so that a sync and its creates fall on the same side of
	// the window's edges.
	syncs, counted := r["syncs_during_fault"]
	creates := r["creates_during_fault"]
	switch v.Design {
	case scenario.Legacy.Design:
		// Every sync, the resize's and each tick's, finds the N
		// missing pods and sends all N again. The manager runs one
		// sync at a time (its watch and its tick share a goroutine),
		// and each edge of the window can cut one: at the start, a
		// tick that listed the controllers just before the resize
		// was written is counted inside and sends nothing; at the
		// end, the last sync's creates may fall after it. A manager
		// that counts no syncs (the original v0.4) must still have
		// sent one round.
		if !counted {
			if posts < n {
				return fmt.Errorf("legacy sent %.0f pod POSTs during the fault, want at least N = %.0f", posts, n)
			}
			break
		}
		if ticks, ok := r["ticks_during_fault"]; ok && ticks < 1 {
			return fmt.Errorf("legacy ran no tick during the fault, want its ticks to resend the pods")
		}
		if syncs < 3 || creates < n*(syncs-2) {
			return fmt.Errorf("legacy sent %.0f pod creates in %.0f syncs during the fault, want N = %.0f on every sync (the resize's and each tick's) but one at each edge of the window", creates, syncs, n)
		}
	default:
		// Slow start sends one create per attempt and stops at its
		// failure; the failed sync goes back on the rate-limited
		// queue and comes again as a retry.
		if counted && creates > syncs+1 {
			return fmt.Errorf("modern sent %.0f pod creates in %.0f syncs during the fault, want at most one a sync (slow start stops at the first failure)", creates, syncs)
		}
		if retried, ok := r["other_creates_during_fault"]; ok && retried < 1 {
			return fmt.Errorf("modern made no create on a retry during the fault, want its failed syncs back from the rate-limited queue")
		}
	}
	return nil
}

// closeWatchesEvery is how often watch-drop's apiserver closes every
// watch stream.
const closeWatchesEvery = 3 * time.Second

var _ = described(70, watchDrop)

// watchDrop cuts the watches during a scale-up.
func watchDrop() *scenario.Scenario {
	cluster := oneManager(10)
	cluster.APIServerArgs = []string{"-close_watches_every=" + closeWatchesEvery.String()}
	return &scenario.Scenario{
		Name:       "watch-drop",
		Figure:     "manager_lists",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureLists, Label: "LISTs (relists)"},
		Title:      "Watches cut every few seconds during a scale-up",
		Reproduces: "kubernetes/kubernetes#6770 (thundering herds of relists when watches reconnect)",
		Explain: "The apiserver closes every watch stream every 3 s while a controller scales up. The 2014 " +
			"manager waits a whole period before watching again and relies on its tick; the modern informers " +
			"re-watch from their last resourceVersion at once.",
		Full:    []scenario.Size{sizeN(200)},
		Cluster: cluster,
		Script:  watchDropScript{},
	}
}

type watchDropScript struct{}

func (watchDropScript) Steps(sz scenario.Size) []scenario.Step {
	return []scenario.Step{{
		Title: fmt.Sprintf("Scale up to %d with watches cut every 3 s", sz.Replicas),
		Say:   "Every watch stream is closed by the apiserver every three seconds. Count the re-watches and the relists.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			e.Mark("created")
			if err := startWeb(ctx, e, sz.Replicas); err != nil {
				return err
			}
			e.Mark("converged")
			return scenario.Sleep(ctx, 10*time.Second)
		},
	}}
}

func (watchDropScript) Results(e *scenario.Env) []scenario.Result {
	return []scenario.Result{
		{Name: "time_to_running", Unit: "s", Value: e.Seconds("created", "converged"), LowerIsBetter: true},
		{Name: "manager_watches", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerRequests + "WATCH")},
		{Name: "manager_lists", Process: sampler.ProcessManager, Unit: "requests", Value: e.Last(sampler.ManagerRequests + "LIST"), LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: e.Last(sampler.PodsCreated) - float64(e.Size.Replicas), LowerIsBetter: true},
	}
}

func (watchDropScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	if v.Design != scenario.Legacy.Design && r["extra_pods"] != 0 {
		return fmt.Errorf("modern created %.0f extra pods", r["extra_pods"])
	}
	return nil
}

// seconds returns ds in seconds, in their order.
func seconds(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = d.Seconds()
	}
	return out
}
