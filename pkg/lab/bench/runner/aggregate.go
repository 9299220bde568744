package runner

import (
	"cmp"
	"slices"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Aggregate summarises the runs of every item of the plan, its scenarios
// in plan order. A size that two items run (a sweep runs its headline
// first and the other variants of that size last) is one size of the
// summary, and in a sweep a scenario's sizes read smallest first, those
// on an external etcd cluster after the rest, whatever order they ran in.
func Aggregate(p *Plan, runs []results.RunRecord) ([]results.ScenarioSummary, []results.Failure) {
	var out []results.ScenarioSummary
	var failures []results.Failure
	index := map[string]int{}
	sizeAt := map[string]int{}
	for _, it := range p.Items {
		sc := it.Scenario
		i, ok := index[sc.Name]
		if !ok {
			out = append(out, results.ScenarioSummary{Name: sc.Name, Title: sc.Title, Reproduces: sc.Reproduces, Explain: sc.Explain})
			i = len(out) - 1
			index[sc.Name] = i
		}
		size := results.SizeSummary{
			Label:         it.Size.Label,
			Replicas:      it.Size.Replicas,
			Controllers:   it.Size.Controllers,
			PeriodSeconds: it.Size.Period.Seconds(),
			WindowSeconds: it.Size.Window.Seconds(),
			Rate:          it.Size.Rate,
			EtcdMembers:   it.EtcdMembers,
			LimitSeconds:  it.Limit.Seconds(),
		}
		for _, v := range it.Variants {
			var mine []results.RunRecord
			for _, r := range runs {
				if r.Scenario == sc.Name && r.Size.Label == it.Size.Label && r.Variant.Name == v.Name {
					mine = append(mine, r)
				}
			}
			if len(mine) == 0 {
				continue
			}
			vs := summarizeVariant(sc.Name, v, mine)
			for _, r := range mine {
				if r.Outcome == nil {
					f := results.Failure{Scenario: sc.Name, Size: it.Size.Label, Variant: v.Name, Run: r.Index + 1, Error: r.Err,
						TimedOut: r.TimedOut, RunningAtLimit: r.RunningAtLimit, BoundAtLimit: r.BoundAtLimit}
					if r.Lab != nil {
						f.Lab = r.Lab.Saturated
					}
					failures = append(failures, f)
				}
			}
			size.Variants = append(size.Variants, vs)
		}
		if len(size.Variants) == 0 {
			continue
		}
		key := sc.Name + "/" + it.Size.Label
		if j, ok := sizeAt[key]; ok {
			out[i].Sizes[j].Variants = append(out[i].Sizes[j].Variants, size.Variants...)
			continue
		}
		sizeAt[key] = len(out[i].Sizes)
		out[i].Sizes = append(out[i].Sizes, size)
	}
	if p.Sweep {
		for i := range out {
			slices.SortStableFunc(out[i].Sizes, func(a, b results.SizeSummary) int {
				return cmp.Or(cmp.Compare(min(a.EtcdMembers, 1), min(b.EtcdMembers, 1)), cmp.Compare(a.Pods(), b.Pods()))
			})
		}
	}
	return out, failures
}

// summarizeVariant turns the runs of one variant into figures with their
// spread.
func summarizeVariant(scenarioName string, v scenario.Variant, runs []results.RunRecord) results.VariantSummary {
	vs := results.VariantSummary{Variant: v.Name, Described: v}
	var order []string
	values := map[string][]float64{}
	meta := map[string]results.Figure{}
	var okRuns []int
	var seconds []float64
	for _, r := range runs {
		if r.Outcome == nil {
			vs.Failed++
			if r.Lab != nil && r.Lab.Saturated != "" {
				vs.FailedLab++
			}
			continue
		}
		vs.Runs++
		okRuns = append(okRuns, r.Index)
		seconds = append(seconds, r.Seconds)
		rs, isDerived := results.Of(r.Outcome)
		for _, res := range rs {
			if _, seen := meta[res.Name]; !seen {
				order = append(order, res.Name)
				meta[res.Name] = results.Figure{Name: res.Name, Process: res.Process, Unit: res.Unit, LowerIsBetter: res.LowerIsBetter, Derived: isDerived[res.Name]}
			}
			values[res.Name] = append(values[res.Name], res.Value)
		}
	}
	if len(seconds) > 0 {
		vs.RunSeconds = results.Summarize(seconds)
	}
	for _, name := range order {
		f := meta[name]
		f.Stats = results.Summarize(values[name])
		f.Noisy = f.Stats.Noisy()
		if f.Noisy {
			f.Explanation = findings.ExplainNoise(scenarioName, v, f)
		}
		vs.Figures = append(vs.Figures, f)
	}
	vs.MedianRun = -1
	if len(okRuns) > 0 {
		vs.MedianRun = okRuns[0]
	}
	// The run drawn in the charts is the median run by the scenario's
	// first figure, its headline, when every run has that figure.
	if len(vs.Figures) > 0 && len(vs.Figures[0].Values) == len(okRuns) {
		vs.MedianRun = okRuns[vs.Figures[0].MedianRun()]
	}
	return vs
}
