package findings

import (
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Why figures vary from run to run. Every run has a fresh cluster, the
// same sizes and the same hollow-node seed, so what is left is timing:
// where a 10 s tick falls, which of two racing requests lands first, how
// often a sampler looks, and what else the two cores are doing.

const (
	whyShared = "wall-clock time on a 2-core machine shared with other work: apiserver, etcd (fsync on), hollow nodes, " +
		"manager and sampler compete for two cores, so any other load stretches it (see the load averages in the header)"
	whyTick = "tick phase: the 2014 manager acts on pods only at its 10 s tick, and where that tick falls relative to " +
		"the scenario's step differs in every run"
	whyTickWindow = "tick phase: the window holds a whole number of 10 s ticks, but on a loaded machine a tick's requests " +
		"can be delayed across the window's edge, and count in one run and not in the next"
	whyPeak = "a peak sampled every 25 ms: a burst of short-lived goroutines, connections or memory can rise and fall " +
		"between two samples, so each run catches a different share of it"
	whyRace = "a race: what each 2014 manager creates or deletes depends on which of its LISTs sees the other's " +
		"writes, and that order differs run to run"
	whyKill    = "the kill lands at a different point of the scale-up in each run, with a different number of creates in flight"
	whyBackoff = "backoff: the workqueue's per-item delay doubles on each failure, and the step it had reached when " +
		"the fault cleared differs run to run"
	whyFew = "a rate of very few requests: one relist, lease renewal or status write more or less moves a near-zero " +
		"figure by a large fraction"
	whyCPU      = "CPU time is read in 10 ms kernel ticks: the small totals of a mostly idle process move by whole ticks"
	whyWatchCut = "the apiserver cuts watches every 3 s on its own clock, so the cuts fall at a different point of the " +
		"manager's work in each run"
	whyRelist = "a watch that ends during a large scale-up (as one that falls behind etcd's 1 000-event window " +
		"does) costs its informer one more LIST and WATCH, and whether one ends depends on how far the watch fell behind"
	whyStatusWrites = "status writes: the modern manager writes the controller's status as its pods come up, tens " +
		"to hundreds of times in a scale-up of 1 000, and reads it again after each conflict; this apiserver, like v0.4's, " +
		"fills a controller's currentState.replicas on every read and every watch event by listing its pods, all 1 000, " +
		"so each write costs the apiserver milliseconds of CPU that the hollow nodes' pod updates then wait behind; how " +
		"many writes a run makes depends on how pod events batch into syncs; and the manager creates at most 500 pods " +
		"per sync and waits until its pod watch has seen them all before the next, so a slow watch delays the second half"
	whyAPIServerCPU = "CPU time from the controller's creation to the end of the run: the scrapes themselves count, " +
		"and the total grows with whatever else the two cores are doing"
	whyLease = "lease renewals every 2 s over the whole run: a run that lasts longer renews more often"
	// WhyZero is the explanation of a figure whose median is 0.
	WhyZero = "the median is 0 and some runs were not, so a spread relative to the median means nothing: read min and max"
)

// ExplainNoise says why a figure flagged as noisy varies.
func ExplainNoise(scenarioName string, variant scenario.Variant, f results.Figure) string {
	legacy := Is2014(variant)
	if f.Spread == nil {
		if strings.HasPrefix(f.Name, "manager_") && !legacy {
			return whyRelist + "; " + WhyZero
		}
		return WhyZero
	}
	name := f.Name
	switch {
	case scenarioName == "two-managers":
		if legacy {
			return whyRace
		}
		return whyShared
	case scenarioName == "restart" && (name == "extra_pods" || name == "final_active"):
		return whyKill
	case scenarioName == "watch-drop" && name != "time_to_running":
		return whyWatchCut
	case scenarioName == "scale-up" && !legacy && (strings.HasPrefix(name, "time_to_") || name == "manager_requests" ||
		name == "status_writes" || name == "requests_status_writes" || name == "apiserver_cpu" || name == "hollow_node_cpu"):
		return whyStatusWrites
	case name == "apiserver_cpu" || name == "hollow_node_cpu":
		return whyAPIServerCPU
	case name == results.SelfCPUFigure:
		return whyShared
	case name == "requests_leader_election":
		return whyLease
	case (name == "manager_lists" || name == "manager_requests" || name == "manager_watches") && !legacy:
		return whyRelist
	case strings.HasPrefix(name, "peak_"):
		return whyPeak
	case name == "cpu_per_min":
		return whyCPU
	case strings.HasSuffix(name, "_per_min") && scenarioName == "idle":
		if legacy {
			return whyTickWindow
		}
		return whyFew
	case strings.HasSuffix(name, "_during_fault") || name == "time_to_converge_after_fault":
		if legacy {
			return whyTick
		}
		return whyBackoff
	case strings.HasPrefix(name, "replacement_") || name == "min_running":
		if legacy {
			return whyTick
		}
		return whyShared
	}
	return whyShared
}
