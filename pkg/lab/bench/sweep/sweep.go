package sweep

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// Run measures the sweep the options ask for and writes its report
// into a new timestamped directory under Opts.Out, which it returns.
func Run(ctx context.Context, r *runner.Runner) (string, *results.Summary, error) {
	p, err := BuildPlan(r.Opts)
	if err != nil {
		return "", nil, err
	}
	return r.Measure(ctx, p)
}

// sweepCounts are the pod counts of a sweep: N for scale-up, and the
// pods idle keeps running (10 controllers of N/10).
func sweepCounts(quick bool) (scaleUp, idle []int) {
	if quick {
		return []int{100, 300, 1000}, []int{100, 1000}
	}
	return sweepSizes, sweepSizes
}

// sweepSizes are the pod counts of a whole sweep.
var sweepSizes = []int{100, 1000, 3000, 10000, 30000, 100000}

// sweepControllers is idle's M in a sweep; the pods per controller grow.
const sweepControllers = 10

// sweepVariants are the designs a sweep compares: 2014's and today's on
// our stack, the design alone; and stack against stack, v0.4's own
// binaries with the fair fight's nodes and kubelets (make original), so
// that the sweep finds the largest size they reach and their break, and
// today's whole control plane without its client limit (make today). A
// variant whose binaries are not built is left out with a note. Today's
// stack at parity is on the fair fight's page, at 1 000 and 10 000 pods.
var sweepVariants = []string{scenario.Legacy.Name, scenario.ModernUnthrottled.Name, scenario.StackOriginalParity.Name, scenario.StackTodayUnthrottled.Name}

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
// after it, and a run still going when it ends is stopped. A whole sweep's
// is 72 minutes, so that its page, built and written around it, publishes
// within 75 minutes on its own (make publish PAGES=sweep).
func sweepBudget(quick bool) time.Duration {
	if quick {
		return 10 * time.Minute
	}
	return 72 * time.Minute
}

// sweepEtcdPods is the size of the point run on an external etcd cluster:
// one of the sweep's sizes, so that it compares with the embedded member's
// point of the same size, and small enough that a full sweep reaches it
// well within its budget (a full sweep on a quiet 2-core machine reached
// 10 000 pods early in its hour, and its hour was used up at 100 000).
func sweepEtcdPods(quick bool) int {
	if quick {
		return 1000
	}
	return 3000
}

// The run limit of a sweep point: two minutes for the cluster's start and
// stop, 6 ms a pod, and for idle the settling (at most two minutes) and
// the window. Over N pods the limit is a floor of throughput: a scale-up
// that brings up fewer than N ÷ (2 min + N·6 ms) pods a second end to end
// fails. The floor grows with N, 56 pods a second at 10 000, 100 at
// 30 000, 139 at 100 000, and nears 1 ÷ 6 ms, about 167, only for very
// large N; the page says so beside every break (report.floorsText). A
// 2014 manager on a quiet 2-core machine brings 1 000 up well above
// that, as the sweep page of c8a39af measured.
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

// BuildPlan lays out a sweep. Its headline comes first: the designs on
// our apiserver scaling up at the largest size, which a budget spent on
// the smaller sizes left out of the sweep of c8a39af. Then at each size,
// smallest first, idle then scale-up, so that a sweep cut short by its
// budget loses its largest sizes, and of those the scale-up first: idle's
// setup is its creates, bounded, where a scale-up that stops keeping up
// runs to its limit (twelve minutes at 100 000 pods). The other variants'
// scale-up at the largest size comes last, where it runs only if they
// have not broken below it. With -etcd3, after every other point, the
// same two at one size on an external etcd cluster of three members: a
// budget cut then takes them first. One run each unless -runs says more.
func BuildPlan(opts runner.Options) (*runner.Plan, error) {
	for _, n := range opts.Scenarios {
		if n != "scale-up" && n != "idle" {
			return nil, fmt.Errorf("-sweep runs scale-up and idle; -scenarios can narrow it to one of them, not %q", n)
		}
	}
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
	p := &runner.Plan{RunsEach: runs, Sweep: true, Budget: sweepBudget(opts.Quick)}
	var variants []scenario.Variant
	missing := runner.NewMissingBinaries(opts)
	for _, n := range names {
		v, err := scenario.VariantByName(n)
		if err != nil {
			return nil, err
		}
		if !missing.Skip(v) {
			variants = append(variants, v)
		}
	}
	p.Notes = append(p.Notes, missing.Notes()...)
	if len(variants) == 0 {
		return nil, fmt.Errorf("no controller-manager binary in %s for %s", opts.BinDir, strings.Join(names, ", "))
	}
	up, err := scripts.Get("scale-up")
	if err != nil {
		return nil, err
	}
	quiet, err := scripts.Get("idle")
	if err != nil {
		return nil, err
	}
	// Today's stack and v0.4's own apiserver run a scale-up as they
	// are; idle's pods created before the manager starts, and an etcd
	// cluster of ours, they have not.
	ours := scenario.Variant.OnOurAPIServer
	onOurs := slices.DeleteFunc(slices.Clone(variants), func(v scenario.Variant) bool { return !ours(v) })
	if len(onOurs) < len(variants) && !(len(opts.Scenarios) == 1 && opts.Scenarios[0] == "scale-up") {
		var names []string
		for _, v := range variants {
			if !ours(v) {
				names = append(names, v.Name)
			}
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s ran scale-up only: the sweep's idle creates its pods before the manager "+
			"starts, so that it is measured where a design cannot scale up, and neither today's stack nor v0.4's own "+
			"apiserver has such a start here; nor an etcd cluster of ours.", strings.Join(names, ", ")))
	}
	// The ablations price one thing each beside their parity run, at
	// the smaller sizes only (scenario.AblationMaxReplicas).
	ablation := func(v scenario.Variant) bool { return v.Ablation != "" }
	ablatedAbove := false
	upItem := func(n, members int) runner.Item {
		sz := scenario.Size{Label: fmt.Sprintf("N=%d", n), Replicas: n, Period: 10 * time.Second}
		vs := variants
		if members > 0 {
			vs = onOurs
		}
		if n > scenario.AblationMaxReplicas && slices.ContainsFunc(vs, ablation) {
			vs = slices.DeleteFunc(slices.Clone(vs), ablation)
			ablatedAbove = true
		}
		return runner.Item{Scenario: up, Size: sz, Variants: vs, Runs: runs, Limit: sweepRunLimit(up.Name, n, 0), EtcdMembers: members}
	}
	idleItem := func(n, members int) runner.Item {
		window := sweepIdleWindow(opts.Quick)
		sz := scenario.Size{Label: fmt.Sprintf("M=%d,k=%d", sweepControllers, n/sweepControllers), Controllers: sweepControllers,
			Replicas: n / sweepControllers, Period: 10 * time.Second, Window: window, PodsFirst: true}
		return runner.Item{Scenario: quiet, Size: sz, Variants: onOurs, Runs: runs, Limit: sweepRunLimit(quiet.Name, n, window), EtcdMembers: members}
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
	// The headline: the designs on our apiserver at the largest scale-up,
	// first, where a sweep has a budget to cut it. The summary shows it
	// in its place among the sizes (runner.Aggregate).
	headline := 0
	if p.Budget > 0 && len(scaleUp) > 1 {
		headline = slices.Max(scaleUp)
		if it := upItem(headline, 0); slices.ContainsFunc(it.Variants, ours) {
			it.Variants = slices.DeleteFunc(slices.Clone(it.Variants), func(v scenario.Variant) bool { return !ours(v) })
			p.Items = append(p.Items, it)
		}
	}
	for _, n := range slices.Compact(sizes) {
		var here []runner.Item
		if slices.Contains(idle, n) && len(onOurs) > 0 {
			here = append(here, idleItem(n, 0))
		}
		if slices.Contains(scaleUp, n) {
			it := upItem(n, 0)
			if n == headline {
				it.Variants = slices.DeleteFunc(slices.Clone(it.Variants), ours)
			}
			if len(it.Variants) > 0 {
				here = append(here, it)
			}
		}
		p.Items = append(p.Items, here...)
	}
	if n := sweepEtcdPods(opts.Quick); etcd3 && (slices.Contains(scaleUp, n) || slices.Contains(idle, n)) {
		for _, it := range []runner.Item{idleItem(n, 3), upItem(n, 3)} {
			if len(it.Variants) == 0 {
				continue
			}
			it.Size.Label += ",etcd3"
			p.Items = append(p.Items, it)
		}
	}
	if ablatedAbove {
		var names []string
		for _, v := range variants {
			if ablation(v) {
				names = append(names, v.Name)
			}
		}
		p.Notes = append(p.Notes, fmt.Sprintf("%s ran at %d pods at most: an ablation prices one thing beside its parity run, "+
			"and the smaller size prices it in a fraction of the time.", strings.Join(names, ", "), scenario.AblationMaxReplicas))
	}
	expected, atMost := estimate(p)
	bound := fmt.Sprintf("every run's limit, and the sweep's budget of %s", results.FormatDuration(p.Budget))
	if p.Budget == 0 {
		bound = "every run's limit"
	}
	p.Notes = append(p.Notes, fmt.Sprintf("A sweep: scale-up and idle at every size, one fresh cluster per run, variants alternating; "+
		"idle's pods are created by the benchmark, as its design's manager would have made them, before the manager starts, "+
		"so that idle is measured even at sizes a design cannot scale up to; "+
		"once a design breaks at a size, its larger sizes of that scenario are not run. Planned: %d runs, about %s on a quiet 2-core machine, "+
		"at most %s (%s).", p.Runs(), results.FormatDuration(expected), results.FormatDuration(atMost), bound))
	if len(opts.SweepSizes) > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("Points of the sweep run alone (-sizes=%s), not the whole sweep.", joinInts(opts.SweepSizes)))
	}
	return p, nil
}

// estimate says how long the plan's runs should take on a quiet 2-core
// machine, and at most: the sum of their limits, or the budget. The
// expected time of a run is a cluster's start and stop (6 s), its pods
// brought up at 250 a second, for idle the settling (15 s) and the window.
func estimate(p *runner.Plan) (expected, atMost time.Duration) {
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

// joinInts writes ns comma-separated.
func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

// Estimate says how long the sweep that opts ask for should take on a
// quiet 2-core machine, and at most: its plan's own estimate, which make
// publish prints before it starts.
func Estimate(opts runner.Options) (expected, atMost time.Duration, err error) {
	p, err := BuildPlan(opts)
	if err != nil {
		return 0, 0, err
	}
	expected, atMost = estimate(p)
	return expected, atMost, nil
}
