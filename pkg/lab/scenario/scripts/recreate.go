package scripts

import (
	"context"
	"fmt"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// A controller deleted and created again: who owns the pods it left?

// recreateTalkLength is recreate's TalkLength: it has no recording in
// examples/talk, and the talk's README cites this length.
const recreateTalkLength = 4 * time.Second

var _ = described(120, recreate)

// recreate asks who owns the pods a deleted controller left.
func recreate() *scenario.Scenario {
	return &scenario.Scenario{
		Name:       "recreate",
		Figure:     "creates_after_recreate",
		Live:       scenario.LiveFigure{Measure: scenario.MeasureCreatedSince, Label: "pods created again", Step: 2, Onward: true},
		Title:      "A controller deleted and created again",
		Reproduces: "the pods a deleted controller leaves behind (history: garbage-collector)",
		Explain: "A controller of N runs; it is deleted, its pods left running, and created again at once under " +
			"the same name and selector. The 2014 manager owns pods by selector, so the new controller counts " +
			"the old pods as its own and creates none. Today a pod names its controller by uid, so the new " +
			"controller can neither count nor adopt the old pods and creates N of its own; the garbage " +
			"collector deletes the old ones. Without it they would run on, unowned, beside the new: 2N.",
		Full:    []scenario.Size{{Label: "N=50", Replicas: 50, Period: period2014, Window: 30 * time.Second}},
		Quick:   []scenario.Size{{Label: "N=10", Replicas: 10, Period: period2014, Window: 15 * time.Second}},
		Cluster: oneManager(10),
		// A demonstration whose outcome is a yes or no, shown by make demo
		// and asserted by the tests: in no default run of make bench.
		Bench:      &scenario.Bench{Variants: scenario.LegacyAndModern},
		TalkLength: recreateTalkLength,
		Script:     recreateScript{},
	}
}

type recreateScript struct{}

func (recreateScript) Steps(sz scenario.Size) []scenario.Step {
	// created counts the pods seen created before the recreation.
	created := 0
	return []scenario.Step{{
		Title: fmt.Sprintf("Create controller web of %d", sz.Replicas),
		Say:   "One controller and its pods, all running.",
		Run:   func(ctx context.Context, e *scenario.Env) error { return startWeb(ctx, e, sz.Replicas) },
	}, {
		Title: "Delete it, and create it again",
		Say: "The controller is deleted — its pods stay — and the same controller is created again. " +
			"Whose are the pods now?",
		Starts: true,
		Run: func(ctx context.Context, e *scenario.Env) error {
			created = e.Sampler.Pods.Counts().Created
			// Marked before the delete: today's collector may
			// delete the old pods before the controller is
			// created again, and those deletes are the outcome.
			e.Mark("recreated")
			if err := e.Client.DeleteReplicationController(api.NewDefaultContext(), "web"); err != nil {
				return err
			}
			return e.CreateController(scenario.Controller("web", sz.Replicas, webSelector, nil))
		},
	}, {
		Title: fmt.Sprintf("Wait up to %v for %d running pods", sz.Window, sz.Replicas),
		Say: "The 2014 manager counts the old pods and is done. Today's controller makes its own pods, " +
			"and the garbage collector deletes the old ones: N again. Without the collector, 2N for ever.",
		Run: func(ctx context.Context, e *scenario.Env) error {
			// Done when N pods run and they are the new
			// controller's: the old ones for the 2014 manager,
			// which owns by selector; N new ones for today's.
			// Not getting there is an outcome here, not a failure:
			// without a collector the old pods never go, and the
			// window bounds the wait. With one, the wait is as
			// generous as any convergence: a collector slowed by a
			// busy machine is not one that left the pods.
			limit := sz.Window
			if e.Variant.Design != scenario.Legacy.Design && !e.Variant.Without("garbage-collector") {
				limit = max(limit, scenario.ConvergeLimit(2*sz.Replicas))
			}
			_ = scenario.WaitFor(ctx, limit, "the recreated controller's pods", func() (bool, string) {
				c := e.Sampler.Pods.Counts()
				own := e.Variant.Design == scenario.Legacy.Design || c.Created-created >= sz.Replicas
				return own && c.Active == sz.Replicas && c.Running == sz.Replicas,
					fmt.Sprintf("%d active, %d running, %d created", c.Active, c.Running, c.Created-created)
			})
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// A short wait lets a late create or delete show up.
			if err := scenario.Sleep(ctx, 2*time.Second); err != nil {
				return err
			}
			e.Mark("end")
			return nil
		},
	}}
}

func (recreateScript) Results(e *scenario.Env) []scenario.Result {
	from := e.At("recreated")
	return []scenario.Result{
		{Name: "extra_pods", Unit: "pods", Value: e.Last(sampler.PodsActive) - float64(e.Size.Replicas), LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: e.Last(sampler.PodsActive)},
		{Name: "creates_after_recreate", Process: sampler.ProcessManager, Unit: "requests", Value: e.Sampler.Rec.Between(sampler.ManagerPodPosts, from, 1e9), LowerIsBetter: true},
		{Name: "deletes_after_recreate", Process: sampler.ProcessManager, Unit: "requests", Value: e.Sampler.Rec.Between(sampler.ManagerRequests+"DELETE", from, 1e9)},
	}
}

func (recreateScript) Expect(v scenario.Variant, sz scenario.Size, r map[string]float64) error {
	n := float64(sz.Replicas)
	if r["extra_pods"] != 0 {
		return fmt.Errorf("%s: %.0f active pods at the end, want %.0f: the deleted controller's pods were left beside the new ones", v.Name, r["final_active"], n)
	}
	switch v.Design {
	case scenario.Legacy.Design:
		if r["creates_after_recreate"] != 0 {
			return fmt.Errorf("legacy created %.0f pods for the recreated controller, want none: it owns the old pods by selector", r["creates_after_recreate"])
		}
	default:
		if r["deletes_after_recreate"] < n {
			return fmt.Errorf("modern deleted %.0f pods after the recreation, want the deleted controller's %.0f", r["deletes_after_recreate"], n)
		}
	}
	return nil
}
