package bench

import (
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TimeToCreate is the figure the benchmark adds to scale-up: seconds from
// the controller's creation until the pod watch has seen N pods created.
// It is the part of time_to_running that the create floor bounds; the
// rest is the hollow nodes binding and starting the pods.
const TimeToCreate = "time_to_create"

// The figures the benchmark adds to every scenario but idle (which
// counts the same per minute of its window): the controller-manager
// processes' requests over the whole run by purpose, so that no request,
// a lease renewal included, goes uncounted or unnamed.
var purposeFigures = map[string]string{
	sampler.PurposeSync:     "requests_sync",
	sampler.PurposeStatus:   "requests_status_writes",
	sampler.PurposeElection: "requests_leader_election",
	sampler.PurposeEvents:   "requests_events",
}

// derived returns the figures the benchmark computes from a run's samples
// on top of the scenario's own.
func derived(o *scenario.Outcome) []scenario.Result {
	if o.Rec == nil {
		return nil
	}
	var out []scenario.Result
	if o.Scenario == "scale-up" {
		if from, ok := o.Marks["created"]; ok && from >= 0 {
			n := float64(o.Size.Replicas)
			for _, p := range o.Rec.Series(sampler.PodsCreated) {
				if p.T >= from && p.V >= n {
					out = append(out, scenario.Result{Name: TimeToCreate, Unit: "s", Value: p.T - from, LowerIsBetter: true})
					break
				}
			}
		}
	}
	if o.Scenario != "idle" {
		for _, p := range sampler.Purposes {
			out = append(out, scenario.Result{Name: purposeFigures[p], Process: sampler.ProcessManager, Unit: "requests",
				Value: o.Rec.Last(sampler.ManagerPurpose + p), LowerIsBetter: true})
		}
	}
	// What measuring cost: the benchmark shares the two cores with what
	// it measures.
	if len(o.Rec.Series(sampler.SelfCPU)) > 0 {
		out = append(out, scenario.Result{Name: SelfCPUFigure, Process: sampler.ProcessSelf, Unit: "CPU s",
			Value: o.Rec.Last(sampler.SelfCPU), LowerIsBetter: true})
	}
	return out
}

// SelfCPUFigure is the CPU the benchmark process used while a run was
// sampled: its pod watch, its scrapes and the scenario's own requests.
const SelfCPUFigure = "rcbench_cpu"

// results returns a run's figures, the derived ones last, and which of
// them are derived.
func results(o *scenario.Outcome) ([]scenario.Result, map[string]bool) {
	extra := derived(o)
	out := append(append([]scenario.Result(nil), o.Results...), extra...)
	isDerived := map[string]bool{}
	for _, r := range extra {
		isDerived[r.Name] = true
	}
	return out, isDerived
}

// aggregate summarises the runs of every item of the plan, in plan order.
func aggregate(p *Plan, runs []RunRecord) ([]ScenarioSummary, []Failure) {
	var out []ScenarioSummary
	var failures []Failure
	index := map[string]int{}
	for _, it := range p.Items {
		sc := it.Scenario
		i, ok := index[sc.Name]
		if !ok {
			out = append(out, ScenarioSummary{Name: sc.Name, Title: sc.Title, Reproduces: sc.Reproduces, Explain: sc.Explain})
			i = len(out) - 1
			index[sc.Name] = i
		}
		size := SizeSummary{
			Label:         it.Size.Label,
			Replicas:      it.Size.Replicas,
			Controllers:   it.Size.Controllers,
			PeriodSeconds: it.Size.Period.Seconds(),
			WindowSeconds: it.Size.Window.Seconds(),
			Rate:          it.Size.Rate,
			EtcdMembers:   it.EtcdMembers,
		}
		for _, v := range it.Variants {
			var mine []RunRecord
			for _, r := range runs {
				if r.Scenario == sc.Name && r.Size.Label == it.Size.Label && r.Variant == v.Name {
					mine = append(mine, r)
				}
			}
			if len(mine) == 0 {
				continue
			}
			vs := summarizeVariant(sc.Name, v.Name, mine)
			for _, r := range mine {
				if r.Outcome == nil {
					f := Failure{Scenario: sc.Name, Size: it.Size.Label, Variant: v.Name, Run: r.Index + 1, Error: r.Err}
					if r.Lab != nil {
						f.Lab = r.Lab.Saturated
					}
					failures = append(failures, f)
				}
			}
			size.Variants = append(size.Variants, vs)
		}
		if len(size.Variants) > 0 {
			out[i].Sizes = append(out[i].Sizes, size)
		}
	}
	return out, failures
}

// summarizeVariant turns the runs of one variant into figures with their
// spread.
func summarizeVariant(scenarioName, variant string, runs []RunRecord) VariantSummary {
	vs := VariantSummary{Variant: variant}
	var order []string
	values := map[string][]float64{}
	meta := map[string]Figure{}
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
		rs, isDerived := results(r.Outcome)
		for _, res := range rs {
			if _, seen := meta[res.Name]; !seen {
				order = append(order, res.Name)
				meta[res.Name] = Figure{Name: res.Name, Process: res.Process, Unit: res.Unit, LowerIsBetter: res.LowerIsBetter, Derived: isDerived[res.Name]}
			}
			values[res.Name] = append(values[res.Name], res.Value)
		}
	}
	if len(seconds) > 0 {
		vs.RunSeconds = Summarize(seconds)
	}
	for _, name := range order {
		f := meta[name]
		f.Stats = Summarize(values[name])
		f.Noisy = f.Stats.Noisy()
		if f.Noisy {
			f.Explanation = explainNoise(scenarioName, variant, f)
		}
		vs.Figures = append(vs.Figures, f)
	}
	vs.MedianRun = -1
	if len(okRuns) > 0 {
		vs.MedianRun = okRuns[0]
	}
	// The run drawn in the charts is the median of the scenario's first
	// figure, its headline, when every run has that figure.
	if len(vs.Figures) > 0 && len(vs.Figures[0].Values) == len(okRuns) {
		vs.MedianRun = okRuns[vs.Figures[0].MedianIndex()]
	}
	return vs
}
