package results

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
var PurposeFigures = map[string]string{
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
	// Outside a cluster, or without the meter on today's stack, the
	// managers' requests are not counted by purpose
	// (scenario.NotMeasuredOutside, scenario.NotMetered).
	if o.Scenario != "idle" && o.Variant.CountsRequests() {
		for _, p := range sampler.Purposes {
			out = append(out, scenario.Result{Name: PurposeFigures[p], Process: sampler.ProcessManager, Unit: "requests",
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

// Of returns a run's figures, the derived ones last, and which of
// them are derived.
func Of(o *scenario.Outcome) ([]scenario.Result, map[string]bool) {
	extra := derived(o)
	out := append(append([]scenario.Result(nil), o.Results...), extra...)
	isDerived := map[string]bool{}
	for _, r := range extra {
		isDerived[r.Name] = true
	}
	return out, isDerived
}
