package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// RunItems runs every item of p, each on fresh clusters, and returns the
// records of the runs that finished or failed (not those cut short), and
// in a sweep the runs it left out: a design's larger sizes of a scenario
// once it broke, and whatever the budget left no time for.
func (r *Runner) RunItems(ctx context.Context, dir string, p *Plan, cores int) ([]results.RunRecord, []results.Skip) {
	var runs []results.RunRecord
	var skipped []results.Skip
	total, done := p.Runs(), 0
	var deadline time.Time
	if p.Budget > 0 {
		deadline = r.Now().Add(p.Budget)
	}
	// brokeAt holds, by scenario and variant, the pods at which the
	// design broke and the figure that broke.
	type broke struct {
		pods int
		why  string
	}
	brokeAt := map[string]broke{}
	skip := func(it Item, v string, why string) {
		skipped = append(skipped, results.Skip{Scenario: it.Scenario.Name, Label: it.Size.Label, Variant: v, Why: why})
		r.Say("        %s %s %s not run: %s", it.Scenario.Name, it.Size.Label, v, why)
	}
	for _, it := range p.Items {
		// Variants alternate, A B C A B C, so that a slow spell of the
		// machine spreads over all of them instead of hitting one.
		for i := 0; i < it.Runs && ctx.Err() == nil; i++ {
			for _, v := range it.Variants {
				if ctx.Err() != nil {
					break
				}
				done++
				key := it.Scenario.Name + "/" + v.Name
				if b, ok := brokeAt[key]; ok && p.Sweep && it.EtcdMembers == 0 && it.Pods() > b.pods {
					skip(it, v.Name, fmt.Sprintf("broke at %d (%s)", b.pods, b.why))
					continue
				}
				limit := it.Limit
				budgetCut := false
				if !deadline.IsZero() {
					left := deadline.Sub(r.Now())
					if left <= 0 {
						skip(it, v.Name, fmt.Sprintf("the sweep's budget of %s was used up", results.FormatDuration(p.Budget)))
						continue
					}
					if limit == 0 || left < limit {
						limit, budgetCut = left, true
					}
				}
				rec := r.runOne(ctx, dir, it, v, i, done, total, limit)
				// A run cut short by Ctrl-C did not fail: it is left out.
				if rec.Outcome == nil && ctx.Err() != nil {
					break
				}
				// Nor did one stopped by the end of the budget.
				if rec.TimedOut && budgetCut {
					skip(it, v.Name, fmt.Sprintf("stopped unfinished when the sweep's budget of %s ran out", results.FormatDuration(p.Budget)))
					continue
				}
				runs = append(runs, rec)
				// A run whose laboratory was saturated measured the
				// hollow nodes or the benchmark as much as the design:
				// it marks no break, and the larger sizes still run.
				if rec.Lab != nil && rec.Lab.Saturated != "" {
					continue
				}
				if why := brokeBy(rec, cores); why != "" && p.Sweep && it.EtcdMembers == 0 {
					if _, ok := brokeAt[key]; !ok {
						brokeAt[key] = broke{pods: it.Pods(), why: why}
					}
				}
			}
		}
	}
	return runs, skipped
}

// brokeBy says why a run marks its design's breaking point, or "": it
// failed (to start, or to converge within its limit), or it is an idle
// run whose apiserver needed more CPU a minute than the machine's cores,
// or that no longer did what an idle cluster of its design must.
func brokeBy(rec results.RunRecord, cores int) string {
	if rec.Outcome == nil {
		return "the run failed"
	}
	if rec.Scenario != "idle" {
		return ""
	}
	return report.IdleBroke(rec.Variant, rec.Size, scenario.ResultMap(rec.Outcome.Results), cores)
}
