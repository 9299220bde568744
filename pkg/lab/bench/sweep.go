package bench

import (
	"fmt"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
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

// buildSweepPlan lays out a sweep: every size of scale-up, then of idle,
// smallest first, one run each unless -runs says more.
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
	p := &Plan{RunsEach: runs}
	var variants []scenario.Variant
	for _, n := range names {
		v, err := VariantByName(n)
		if err != nil {
			return nil, err
		}
		if bin := stack.ManagerBinary(v.Design); !haveBinary(opts.BinDir, bin) {
			p.Notes = append(p.Notes, fmt.Sprintf("%s was not found in %s, so %s was not swept.", bin, opts.BinDir, v.Name))
			continue
		}
		variants = append(variants, v)
	}
	if len(variants) == 0 {
		return nil, fmt.Errorf("no controller-manager binary in %s for %s", opts.BinDir, strings.Join(names, ", "))
	}
	scaleUp, idle := sweepCounts(opts.Quick)
	up, err := scenario.Get("scale-up")
	if err != nil {
		return nil, err
	}
	for _, n := range scaleUp {
		p.Items = append(p.Items, Item{Scenario: up, Size: scenario.Size{Label: fmt.Sprintf("N=%d", n), Replicas: n, Period: 10 * time.Second}, Variants: variants, Runs: runs})
	}
	quiet, err := scenario.Get("idle")
	if err != nil {
		return nil, err
	}
	for _, n := range idle {
		k := n / sweepControllers
		p.Items = append(p.Items, Item{Scenario: quiet, Size: scenario.Size{Label: fmt.Sprintf("M=%d,k=%d", sweepControllers, k), Controllers: sweepControllers,
			Replicas: k, Period: 10 * time.Second, Window: sweepIdleWindow(opts.Quick)}, Variants: variants, Runs: runs})
	}
	p.Notes = append(p.Notes, "A sweep: scale-up and idle at every size, one fresh cluster per run, variants alternating. "+
		"Bytes on the wire are not measured: the apiserver counts requests, not their sizes.")
	return p, nil
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
// an idle apiserver that needs more CPU a minute than the machine has.
func breakingPoint(sum *Summary, variant string) string {
	cores := float64(sum.Machine.CPUs)
	var worst []string
	for _, name := range []string{"scale-up", "idle"} {
		sc, ok := sum.Scenario(name)
		if !ok {
			continue
		}
		for _, sz := range sc.Sizes {
			v, ok := sz.Variant(variant)
			if !ok {
				continue
			}
			pods := formatNumber(sweepPods(sz))
			if v.Failed > 0 {
				worst = append(worst, fmt.Sprintf("%s with %s pods: %d of %d runs failed, to converge or to start (see the failures)", name, pods, v.Failed, v.Failed+v.Runs))
				break
			}
			if f, ok := v.Figure("apiserver_cpu_per_min"); ok && cores > 0 && f.Median > 60*cores {
				worst = append(worst, fmt.Sprintf("idle with %s pods: the apiserver needs %s CPU s a minute, more than the %d cores' %.0f",
					pods, formatNumber(f.Median), sum.Machine.CPUs, 60*cores))
				break
			}
		}
	}
	if len(worst) == 0 {
		return "none within this range"
	}
	return strings.Join(worst, "; ")
}

// sweepFigures are the costs a sweep draws against size, by scenario.
var sweepFigures = []struct{ scenario, figure string }{
	{"scale-up", "time_to_running"},
	{"scale-up", "peak_goroutines"},
	{"scale-up", "peak_rss"},
	{"scale-up", "manager_requests"},
	{"scale-up", "apiserver_cpu"},
	{"idle", "apiserver_cpu_per_min"},
	{"idle", "requests_per_min"},
	{"idle", "cpu_per_min"},
	{"idle", "manager_rss"},
	{"idle", "goroutines"},
}

// sweepSection writes the sweep's charts and breaking points.
func sweepSection(d *document, sum *Summary, chart *Chart) {
	d.h(2, "sweep", "Sweep: cost against cluster size")
	d.p("Scale-up of N pods, and an idle cluster of 10 controllers holding N pods between them, at each size, for each design. " +
		"A design breaks where a run stops converging within its limit or where the idle apiserver needs more CPU a minute than " +
		"the machine's cores have.")
	var items []string
	for _, v := range sum.Options.Variants {
		items = append(items, fmt.Sprintf("%s: breaking point %s.", v, breakingPoint(sum, v)))
	}
	d.list(items...)
	if chart != nil {
		d.figure(*chart)
	}
}
