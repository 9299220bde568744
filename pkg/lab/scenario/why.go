package scenario

import (
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// What the managers say made them act, between two marks: the figures the
// expectations judge a design by, rather than by how soon it acted, which
// a busy machine decides as much as the design.

// WhyResults returns, as figures named after what (e.g. "after_resize"),
// what the managers' own counters say started their syncs between marks
// from and to: the syncs of a tick ("tick_syncs_…"), those of an event
// ("event_syncs_…": the 2014 watch, today's informers), and, where the
// manager counts them (our modern one), the pods created by syncs an
// event started ("event_creates_…") and by syncs of any other cause
// ("other_creates_…": a resync, a retry, a later sync). A manager that
// counts no causes (upstream's, the original v0.4) gets none of these
// figures, and the expectations do not judge them.
func (e *Env) WhyResults(what, from, to string) []Result {
	var out []Result
	syncs := e.byCause(sampler.ManagerSyncsBy, from, to)
	if syncs != nil {
		out = append(out,
			Result{Name: "tick_syncs_" + what, Process: sampler.ProcessManager, Unit: "syncs", Value: syncs[sampler.CauseTick]},
			Result{Name: "event_syncs_" + what, Process: sampler.ProcessManager, Unit: "syncs", Value: sumCauses(syncs, sampler.EventCause)})
	}
	if creates := e.byCause(sampler.ManagerCreatesBy, from, to); creates != nil {
		out = append(out,
			Result{Name: "event_creates_" + what, Process: sampler.ProcessManager, Unit: "pods", Value: sumCauses(creates, sampler.EventCause)},
			Result{Name: "other_creates_" + what, Process: sampler.ProcessManager, Unit: "pods", Value: sumCauses(creates, func(c string) bool { return !sampler.EventCause(c) })})
	}
	return out
}

// TicksResult returns the managers' own count of their ticks between two
// marks as the figure name, or nothing where no manager counts them.
func (e *Env) TicksResult(name, from, to string) []Result {
	if len(e.Sampler.Rec.Series(sampler.ManagerTicks)) == 0 {
		return nil
	}
	return []Result{{Name: name, Process: sampler.ProcessManager, Unit: "ticks", Value: e.Between(sampler.ManagerTicks, from, to)}}
}

// byCause returns the change of every series prefix+cause between two
// marks, by cause; nil when there is none.
func (e *Env) byCause(prefix, from, to string) map[string]float64 {
	var out map[string]float64
	for _, name := range e.Sampler.Rec.Names() {
		if cause, ok := strings.CutPrefix(name, prefix); ok {
			if out == nil {
				out = map[string]float64{}
			}
			out[cause] = e.Between(name, from, to)
		}
	}
	return out
}

func sumCauses(by map[string]float64, include func(string) bool) float64 {
	total := 0.0
	for cause, n := range by {
		if include(cause) {
			total += n
		}
	}
	return total
}

// Between returns the change of a cumulative series from mark from to
// mark to.
func (e *Env) Between(series, from, to string) float64 {
	return e.Sampler.Rec.Between(series, e.At(from), e.At(to))
}
