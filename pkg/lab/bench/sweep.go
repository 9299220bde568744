package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// A sweep runs scale-up and idle over a range of cluster sizes, for the
// 2014 design and today's (without its client throttle, which would only
// add N/20 s to every scale-up), and draws each cost against the size.

// sweepCounts are the pod counts of a sweep: N for scale-up, and the
// pods idle keeps running (10 controllers of N/10).
func sweepCounts(quick bool) (scaleUp, idle []int) {
	if quick {
		return []int{100, 300, 1000}, []int{100, 1000}
	}
	all := []int{100, 1000, 3000, 10000, 30000, 100000}
	return all, all
}

// sweepControllers is idle's M in a sweep; the pods per controller grow.
const sweepControllers = 10

// sweepVariants are the designs a sweep compares.
var sweepVariants = []string{"legacy", "modern-unthrottled"}

// sweepIdleWindow is idle's quiet window in a sweep: whole 10 s ticks.
func sweepIdleWindow(quick bool) time.Duration {
	if quick {
		return 20 * time.Second
	}
	return time.Minute
}

// etcdBinary finds the etcd an -etcd3 point runs; tests replace it.
var etcdBinary = etcdtest.Binary

// sweepBudget is the wall-clock time a sweep may take: no run starts
// after it, and a run still going when it ends is stopped.
func sweepBudget(quick bool) time.Duration {
	if quick {
		return 10 * time.Minute
	}
	return time.Hour
}

// sweepEtcdPods is the size of the point run on an external etcd cluster:
// one of the sweep's sizes, so that it compares with the embedded member's
// point of the same size, and small enough that a full sweep reaches it
// well within its budget (a full sweep on a quiet 2-core machine reached
// 10 000 pods after about 10 min and its hour was used up at 100 000).
func sweepEtcdPods(quick bool) int {
	if quick {
		return 1000
	}
	return 3000
}

// The run limit of a sweep point: two minutes for the cluster's start and
// stop, 6 ms a pod (a design that brings up fewer than about 170 pods a
// second end to end has stopped keeping up with its cluster: a 2014
// manager on a quiet 2-core machine brought 1 000 up in 3.6 s), and for
// idle the settling (at most two minutes) and the window.
const (
	sweepRunBase   = 2 * time.Minute
	sweepPerPod    = 6 * time.Millisecond
	sweepSettleMax = 2 * time.Minute
)

func sweepRunLimit(scenarioName string, pods int, window time.Duration) time.Duration {
	d := sweepRunBase + time.Duration(pods)*sweepPerPod
	if scenarioName == "idle" {
		d += sweepSettleMax + window
	}
	return d
}

// buildSweepPlan lays out a sweep: at each size, smallest first, idle then
// scale-up, so that a sweep cut short by its budget loses its largest
// sizes, and of those the scale-up first: idle's setup is its creates,
// bounded, where a scale-up that stops keeping up runs to its limit
// (twelve minutes at 100 000 pods). With -etcd3, after every other
// point, the same two at one size on an external etcd cluster of three
// members: a budget cut then takes them before a design's 100 000 pods.
// One run each unless -runs says more.
func buildSweepPlan(opts Options) (*Plan, error) {
	runs := opts.Runs
	if runs == 0 {
		runs = 1
	}
	if runs < 0 {
		return nil, fmt.Errorf("-runs must be at least 1, not %d", runs)
	}
	names := opts.Variants
	if len(names) == 0 {
		names = sweepVariants
	}
	p := &Plan{RunsEach: runs, Sweep: true, Budget: sweepBudget(opts.Quick)}
	var variants []scenario.Variant
	missing := newMissingBinaries(opts)
	for _, n := range names {
		v, err := VariantByName(n)
		if err != nil {
			return nil, err
		}
		if !missing.skip(v) {
			variants = append(variants, v)
		}
	}
	p.Notes = append(p.Notes, missing.notes()...)
	if len(variants) == 0 {
		return nil, fmt.Errorf("no controller-manager binary in %s for %s", opts.BinDir, strings.Join(names, ", "))
	}
	up, err := scenario.Get("scale-up")
	if err != nil {
		return nil, err
	}
	quiet, err := scenario.Get("idle")
	if err != nil {
		return nil, err
	}
	upItem := func(n, members int) Item {
		sz := scenario.Size{Label: fmt.Sprintf("N=%d", n), Replicas: n, Period: 10 * time.Second}
		return Item{Scenario: up, Size: sz, Variants: variants, Runs: runs, Limit: sweepRunLimit(up.Name, n, 0), EtcdMembers: members}
	}
	idleItem := func(n, members int) Item {
		window := sweepIdleWindow(opts.Quick)
		sz := scenario.Size{Label: fmt.Sprintf("M=%d,k=%d", sweepControllers, n/sweepControllers), Controllers: sweepControllers,
			Replicas: n / sweepControllers, Period: 10 * time.Second, Window: window, PodsFirst: true}
		return Item{Scenario: quiet, Size: sz, Variants: variants, Runs: runs, Limit: sweepRunLimit(quiet.Name, n, window), EtcdMembers: members}
	}
	etcd3 := opts.Etcd3
	if _, reason := etcdBinary(); etcd3 && reason != "" {
		p.Notes = append(p.Notes, "-etcd3 was asked for, but "+reason+": no point was run on an external etcd cluster.")
		etcd3 = false
	}
	scaleUp, idle := sweepCounts(opts.Quick)
	if len(opts.SweepSizes) > 0 {
		for _, n := range opts.SweepSizes {
			if n < sweepControllers || n%sweepControllers != 0 {
				return nil, fmt.Errorf("-sizes: %d is not a sweep size: a multiple of %d pods, as idle's %d controllers share them", n, sweepControllers, sweepControllers)
			}
		}
		scaleUp, idle = opts.SweepSizes, opts.SweepSizes
		// Points run one at a time are each their own measure: no
		// budget cuts them short but their own limit.
		p.Budget = 0
	}
	if len(opts.Scenarios) > 0 {
		if !slices.Contains(opts.Scenarios, "scale-up") {
			scaleUp = nil
		}
		if !slices.Contains(opts.Scenarios, "idle") {
			idle = nil
		}
	}
	sizes := append(append([]int{}, scaleUp...), idle...)
	slices.Sort(sizes)
	for _, n := range slices.Compact(sizes) {
		var here []Item
		if slices.Contains(idle, n) {
			here = append(here, idleItem(n, 0))
		}
		if slices.Contains(scaleUp, n) {
			here = append(here, upItem(n, 0))
		}
		p.Items = append(p.Items, here...)
	}
	if n := sweepEtcdPods(opts.Quick); etcd3 && (slices.Contains(scaleUp, n) || slices.Contains(idle, n)) {
		for _, it := range []Item{idleItem(n, 3), upItem(n, 3)} {
			it.Size.Label += ",etcd3"
			p.Items = append(p.Items, it)
		}
	}
	expected, atMost := p.Estimate()
	bound := fmt.Sprintf("every run's limit, and the sweep's budget of %s", formatDuration(p.Budget))
	if p.Budget == 0 {
		bound = "every run's limit"
	}
	p.Notes = append(p.Notes, fmt.Sprintf("A sweep: scale-up and idle at every size, one fresh cluster per run, variants alternating; "+
		"idle's pods are created by the benchmark, as its design's manager would have made them, before the manager starts, "+
		"so that idle is measured even at sizes a design cannot scale up to; "+
		"once a design breaks at a size, its larger sizes of that scenario are not run. Planned: %d runs, about %s on a quiet 2-core machine, "+
		"at most %s (%s).", p.Runs(), formatDuration(expected), formatDuration(atMost), bound))
	if len(opts.SweepSizes) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("Points of the sweep run alone (-sizes=%s), not the whole sweep.", joinInts(opts.SweepSizes)))
	}
	return p, nil
}

// Estimate says how long the plan's runs should take on a quiet 2-core
// machine, and at most: the sum of their limits, or the budget. The
// expected time of a run is a cluster's start and stop (6 s), its pods
// brought up at 250 a second, for idle the settling (15 s) and the window.
func (p *Plan) Estimate() (expected, atMost time.Duration) {
	for _, it := range p.Items {
		pods := it.Size.Replicas
		if it.Size.Controllers > 0 {
			pods *= it.Size.Controllers
		}
		one := 6*time.Second + time.Duration(pods)*4*time.Millisecond
		if it.Scenario.Name == "idle" {
			one += 15*time.Second + it.Size.Window
		}
		if it.EtcdMembers > 0 {
			one += 5 * time.Second
		}
		runs := time.Duration(it.Runs * len(it.Variants))
		expected += runs * one
		limit := it.Limit
		if limit == 0 {
			limit = one
		}
		atMost += runs * limit
	}
	if p.Budget > 0 && atMost > p.Budget {
		atMost = p.Budget
	}
	if p.Budget > 0 && expected > p.Budget {
		expected = p.Budget
	}
	return expected, atMost
}

// sweepPods is a size's pod count on a sweep chart's axis.
func sweepPods(sz SizeSummary) float64 {
	if sz.Controllers > 0 {
		return float64(sz.Controllers * sz.Replicas)
	}
	return float64(sz.Replicas)
}

// breakingPoint names the smallest size at which a variant broke on this
// machine: a run that failed (convergence stopped within its limit), or
// an idle cluster whose apiserver needs more CPU a minute than the machine
// has or that no longer does what idle must (see idleBroke), by the
// medians. Where none broke it says up to which size each scenario ran.
// A run that failed with the laboratory saturated is named apart: it is
// not the design's break.
func breakingPoint(sum *Summary, variant string) string {
	var worst, ran, laboratory []string
	for _, name := range []string{"scale-up", "idle"} {
		sc, ok := sum.Scenario(name)
		if !ok {
			continue
		}
		largest, broke := 0.0, false
		for _, sz := range sc.Sizes {
			v, ok := sz.Variant(variant)
			if !ok || sz.EtcdMembers > 0 {
				continue
			}
			pods := formatNumber(sweepPods(sz))
			if v.FailedLab > 0 {
				laboratory = append(laboratory, fmt.Sprintf("%s with %s pods: %d of %d runs failed with the laboratory saturated (see its share), not counted as the design's break",
					name, pods, v.FailedLab, v.Failed+v.Runs))
			}
			if v.Failed > v.FailedLab {
				worst = append(worst, fmt.Sprintf("%s with %s pods: %d of %d runs failed, to converge or to start (see the failures)", name, pods, v.Failed-v.FailedLab, v.Failed+v.Runs))
				broke = true
				break
			}
			if name == "idle" && v.Runs > 0 {
				medians := map[string]float64{}
				for _, f := range v.Figures {
					medians[f.Name] = f.Median
				}
				size := scenario.Size{Controllers: sz.Controllers, Replicas: sz.Replicas, Period: time.Duration(sz.PeriodSeconds * float64(time.Second))}
				if why := idleBroke(variant, size, medians, sum.Machine.CPUs); why != "" {
					worst = append(worst, fmt.Sprintf("idle with %s pods: %s", pods, why))
					broke = true
					break
				}
			}
			if v.Runs > 0 && sweepPods(sz) > largest {
				largest = sweepPods(sz)
			}
		}
		if !broke && largest > 0 {
			ran = append(ran, fmt.Sprintf("%s held up to %s pods", name, formatNumber(largest)))
		}
	}
	lab := ""
	if len(laboratory) > 0 {
		lab = "; " + strings.Join(laboratory, "; ")
	}
	if len(worst) == 0 && len(ran) == 0 {
		return "none: no run of it finished" + lab
	}
	if len(worst) == 0 {
		return "none within the sizes it ran (" + strings.Join(ran, ", ") + ")" + lab
	}
	return strings.Join(append(worst, ran...), "; ") + lab
}

// sweepFigures are the costs a sweep draws against size, by scenario.
var sweepFigures = []struct{ scenario, figure string }{
	{"scale-up", "time_to_running"},
	{"scale-up", "peak_goroutines"},
	{"scale-up", "peak_rss"},
	{"scale-up", "manager_requests"},
	{"scale-up", "manager_bytes"},
	{"scale-up", "apiserver_cpu"},
	{"idle", "apiserver_cpu_per_min"},
	{"idle", "requests_per_min"},
	{"idle", "bytes_per_min"},
	{"idle", "cpu_per_min"},
	{"idle", "manager_rss"},
	{"idle", "goroutines"},
}

// sweepSection writes the sweep's charts, breaking points, the runs it
// left out and the sizes run on an external etcd cluster.
func sweepSection(d *document, sum *Summary, chart *Chart) {
	d.h(2, "sweep", "Sweep: cost against cluster size")
	d.p("Scale-up of N pods, and an idle cluster of 10 controllers holding N pods between them, at each size, for each design. " +
		"Idle's pods are made by the benchmark, as the design's manager would have made them, before the manager starts; the manager " +
		"finds nothing to do (a run in which it creates or deletes a pod fails). " +
		"A design breaks where a run stops converging within its limit, or where idle's apiserver needs more CPU a minute than " +
		"the machine's cores have, idle no longer does what its design must (its expectation, judged by counts), or the 2014 " +
		"manager's ticks fall behind (its LISTs a minute below 70 % of 6·(1 + M)); its larger sizes of that scenario are then not run. A run in which the laboratory " +
		"was saturated (see its share below) is no break: it is named, and the larger sizes still run.")
	var items []string
	for _, v := range sum.Options.Variants {
		items = append(items, fmt.Sprintf("%s: breaking point %s.", v, breakingPoint(sum, v)))
	}
	d.list(items...)
	if m := sum.Machine.FileLimit; m > 0 {
		d.p(fmt.Sprintf("Each of the cluster's processes could hold %s open files here. The 2014 manager opens one connection per pod it "+
			"creates, all at once, and the apiserver accepts each, so at more pods than that its runs can fail for file descriptors; "+
			"a failed run says so when its logs show it.", formatNumber(float64(m))))
	}
	if len(sum.Skipped) > 0 {
		var skipped []string
		for _, s := range sum.Skipped {
			skipped = append(skipped, fmt.Sprintf("%s %s, %s: not run: %s.", s.Scenario, s.Label, s.Variant, s.Why))
		}
		d.p("Runs left out:")
		d.list(skipped...)
	}
	if chart != nil {
		d.figure(*chart)
	}
	etcdSection(d, sum)
}

// joinInts writes ns comma-separated.
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}
