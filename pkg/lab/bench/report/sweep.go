package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/charts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/findings"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// BreakingPoint names the smallest size at which a variant broke on this
// machine: a run that failed (convergence stopped within its limit), or
// an idle cluster whose apiserver needs more CPU a minute than the machine
// has or that no longer does what idle must (see IdleBroke), by the
// medians. Where none broke it says up to which size each scenario ran.
// A run that failed with the laboratory saturated is named apart: it is
// not the design's break.
func BreakingPoint(sum *results.Summary, variant string) string {
	var worst, ran, laboratory []string
	for _, name := range []string{"scale-up", "idle"} {
		sc, ok := sum.Scenario(name)
		if !ok {
			continue
		}
		largest, broke := 0.0, false
		var below *results.SizeSummary
		for _, sz := range sc.Sizes {
			v, ok := sz.Variant(variant)
			if !ok || sz.EtcdMembers > 0 {
				continue
			}
			pods := results.FormatNumber(float64(sz.Pods()))
			if v.FailedLab > 0 {
				laboratory = append(laboratory, fmt.Sprintf("%s with %s pods: %d of %d runs failed with the laboratory saturated (see its share), not counted as the design's break",
					name, pods, v.FailedLab, v.Failed+v.Runs))
			}
			if v.Failed > v.FailedLab {
				why := rateBoundText(sum, name, below, sz, variant)
				if why == "" {
					why = busyMachineText(sum, name, sz.Label, variant)
				}
				worst = append(worst, fmt.Sprintf("%s with %s pods: %d of %d runs failed, to converge or to start (see the failures)%s%s", name, pods, v.Failed-v.FailedLab, v.Failed+v.Runs,
					floorText(sz), why))
				broke = true
				break
			}
			if name == "idle" && v.Runs > 0 {
				medians := map[string]float64{}
				for _, f := range v.Figures {
					medians[f.Name] = f.Median
				}
				size := scenario.Size{Controllers: sz.Controllers, Replicas: sz.Replicas, Period: time.Duration(sz.PeriodSeconds * float64(time.Second))}
				if why := IdleBroke(v.Of(), size, medians, sum.Machine.CPUs); why != "" {
					cpu, _ := v.Figure("apiserver_cpu_per_min")
					worst = append(worst, fmt.Sprintf("idle with %s pods: %s%s", pods, why, saturationText(cpu, sum.Machine.CPUs)))
					broke = true
					break
				}
			}
			if v.Runs > 0 && float64(sz.Pods()) > largest {
				largest = float64(sz.Pods())
				below = &sz
			}
		}
		if !broke && largest > 0 {
			ran = append(ran, fmt.Sprintf("%s held up to %s pods", name, results.FormatNumber(largest)))
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

// saturation is the cause the sweep gives an idle break: the apiserver's
// work has reached what the machine's cores give it. It predicts the
// apiserver's CPU a minute at the break: at least three quarters of the
// cores' (the hollow nodes, the benchmark and the manager share the rest).
// The sweep of 2026-11-26 broke the 2014 idle at 100 000 pods with the
// apiserver above that share: the sweep page of ca358fd has its CPU, and
// the sweep page of c8a39af shows the same break.
const (
	saturationWhy = "the cause: the idle apiserver's work has reached what the machine's cores give it — every tick's LIST " +
		"of a controller's pods computes each pod's status (the apiserver's -read_pod_status, as v0.4 did) — so the 2014 " +
		"manager's next tick waits for the last one's answers"
	saturationShare   = 0.75
	saturationControl = "the ceiling's LIST cost, which calibrate measures with the apiserver's -read_pod_status and with " +
		"-read_pod_status=false"
)

// saturationText holds an idle break to its cause's prediction, given the
// apiserver's CPU a minute at the break and the machine's cores.
func saturationText(cpu results.Figure, cores int) string {
	if cores <= 0 {
		return "; **NOT EXPLAINED**: the machine's cores are unknown, so " + saturationWhy + " cannot be held to its prediction"
	}
	capacity := 60 * float64(cores)
	p := results.Value(cpu.Unit, saturationShare*capacity, math.Inf(1)).Testing(saturationControl)
	j := p.Judge(results.Sides{Theirs: "the apiserver"}, cpu.Unit, 0, cpu.Median)
	if !j.Holds {
		return fmt.Sprintf("; **NOT EXPLAINED**: %s predicts %s (¾ of the %d cores' %s CPU s a minute); measured %s.%s",
			saturationWhy, j.Predicted, cores, results.FormatNumber(capacity), j.Measured, findings.ControlText(&j))
	}
	return fmt.Sprintf("; %s. Predicted: %s (¾ of the %d cores' %s CPU s a minute); measured: %s.%s",
		saturationWhy, j.Predicted, cores, results.FormatNumber(capacity), j.Measured, findings.ControlText(&j))
}

// busyMachine is the cause the sweep gives a failed run that had kept
// the machine busy: its processes (the apiserver with its etcd, the
// managers, the nodes' stand-ins and the benchmark) had every core's
// work, so the run went as fast as the machine let it, and the limit
// stopped it there. It predicts their CPU over the run: at least three
// quarters of what the cores had. Today's whole control plane on 2 cores
// used more than that where it broke (the sweep page of c8a39af has its
// share).
const (
	busyMachineWhy = "the cause: the run's processes had the machine's cores busy, so it went as fast as this machine " +
		"lets it and no faster"
	busyMachineShare = 75.0
)

// busyMachineText holds a variant's failed runs at a size to
// busyMachine's prediction, from the laboratory's record of them; "" where
// none failed with its processes measured.
func busyMachineText(sum *results.Summary, scenarioName, label, variant string) string {
	cores := sum.Machine.CPUs
	share, found := 0.0, false
	for _, r := range sum.Lab {
		if r.Scenario != scenarioName || r.Size != label || r.Variant != variant || !r.Failed || r.Seconds <= 0 || cores <= 0 {
			continue
		}
		share, found = max(share, 100*r.CoresShare(cores)), true
	}
	if !found {
		return ""
	}
	p := results.Value("%", busyMachineShare, math.Inf(1))
	j := p.Judge(results.Sides{Theirs: "its processes' share of the cores"}, "%", 0, share)
	if !j.Holds {
		return fmt.Sprintf("; **NOT EXPLAINED** by the machine: %s predicts %s; measured %s", busyMachineWhy, j.Predicted, j.Measured)
	}
	return fmt.Sprintf("; %s. Predicted: %s of the %d cores' CPU over the run; measured: %s", busyMachineWhy, j.Predicted, cores, j.Measured)
}

// rateBound is the cause the sweep gives a scale-up that failed at its
// limit where the same variant's rate at the size below was already
// under this size's floor: nothing in its work per pod falls as the
// cluster grows (the pods a host holds stay the same or grow, and every
// pod is still created, bound and started one by one), so it goes no
// faster at the larger size than it went at the smaller, and the limit
// stops it. It predicts how far the run came, in pods bound to a node:
// the smaller size's rate times the limit, give or take a run's spread
// (from half of it to a quarter more; the smaller run's start-up is in
// its rate). Bound and not running: every pod is bound through the
// apiserver on both stacks, while v0.4's Running shows only in the
// laboratory's reads of its kubelets, which trail the binds, so the pods
// running at the limit say less of how much work was done than the pods
// bound. Fewer pods bound refutes it as surely as more: a variant that
// went much slower than before was stopped by something that grows with
// the cluster, and one that went faster by something else again.
const (
	rateBoundWhy = "the cause: it goes no faster as the cluster grows, and at %s pods it already brought up %s pods a " +
		"second end to end (%s pods in a median %s s), under this size's floor"
	rateBoundLow, rateBoundHigh = 0.5, 1.25
)

// rateBoundText holds a variant's failed scale-ups at sz to rateBound's
// prediction, given the largest size below it that the variant finished;
// "" where rateBound does not apply: no size below, a rate there at or
// above sz's floor, or no failed run that says how far it came.
func rateBoundText(sum *results.Summary, scenarioName string, below *results.SizeSummary, sz results.SizeSummary, variant string) string {
	if scenarioName != "scale-up" || below == nil || sz.LimitSeconds <= 0 {
		return ""
	}
	v, ok := below.Variant(variant)
	if !ok {
		return ""
	}
	t, ok := v.Figure("time_to_running")
	if !ok || t.Median <= 0 {
		return ""
	}
	rate := float64(below.Pods()) / t.Median
	if rate >= sz.Floor() {
		return ""
	}
	most, found := 0.0, false
	for _, f := range sum.Failures {
		if f.Scenario == scenarioName && f.Size == sz.Label && f.Variant == variant && f.TimedOut && f.Lab == "" {
			most, found = max(most, f.BoundAtLimit), true
		}
	}
	if !found {
		return ""
	}
	came := rate * sz.LimitSeconds
	why := fmt.Sprintf(rateBoundWhy, results.FormatNumber(float64(below.Pods())), results.FormatNumber(rate),
		results.FormatNumber(float64(below.Pods())), results.FormatNumber(t.Median))
	p := results.Value("pods", rateBoundLow*came, rateBoundHigh*came)
	j := p.Judge(results.Sides{Theirs: "the pods bound by its limit, the most of its failed runs"}, "pods", 0, most)
	rule := fmt.Sprintf("that rate times the limit of %s, from half of it to a quarter more", formatLimit(sz.LimitSeconds))
	if !j.Holds {
		slower := "faster than at %s pods, and something else stopped it"
		if most < rateBoundLow*came {
			slower = "far slower than at %s pods: what stopped it grows with the cluster, and the run's profiles are on the page"
		}
		return fmt.Sprintf("; **NOT EXPLAINED**: %s predicts %s (%s); measured %s, so it went "+slower,
			why, j.Predicted, rule, j.Measured, results.FormatNumber(float64(below.Pods())))
	}
	return fmt.Sprintf("; %s. Predicted: %s (%s); measured: %s", why, j.Predicted, rule, j.Measured)
}

// statusWriteGap says, where today's design scaled up slower than 2014's
// on our apiserver and wrote status, why, and which control run tests
// it: the largest such size, with its figures; "" where there is none.
func statusWriteGap(sum *results.Summary) string {
	sc, ok := sum.Scenario("scale-up")
	if !ok {
		return ""
	}
	median := func(v *results.VariantSummary, name string) float64 {
		f, _ := v.Figure(name)
		return f.Median
	}
	for i := len(sc.Sizes) - 1; i >= 0; i-- {
		sz := &sc.Sizes[i]
		legacy, ok1 := sz.Variant(scenario.Legacy.Name)
		modern, ok2 := sz.Variant(scenario.ModernUnthrottled.Name)
		if sz.EtcdMembers > 0 || !ok1 || !ok2 || legacy.Runs == 0 || modern.Runs == 0 {
			continue
		}
		lt, mt, writes := median(legacy, "time_to_running"), median(modern, "time_to_running"), median(modern, "status_writes")
		if mt <= lt || writes == 0 {
			continue
		}
		return fmt.Sprintf("Why today's design scales up slower than 2014's here (at %s pods %s s against %s s, the apiserver at %s CPU s "+
			"against %s): this is the design alone, both managers on our v0.4 apiserver, which counts a controller's pods again on "+
			"every read and watch event of the controller (REST.fillCurrentState in pkg/registry/controller, as v0.4 did), so each "+
			"of today's manager's %s status writes costs a LIST of its pods; upstream stopped that count when the status writes came "+
			"in (history: status-writes), so no release ran the two together. The prediction: without its status writes today's "+
			"manager is no slower than 2014's and its apiserver's CPU falls by a factor of 1.2 to 3. The control run that tests it "+
			"is `make publish PAGES=status-writes` (examples/bench/status-writes/RESULTS.md): the same scale-up at 10 000 pods with "+
			"modern-unthrottled-without-status-writes beside both. Today's whole control plane, where the count is gone, is "+
			"stack-today-unthrottled on this page.",
			results.FormatNumber(float64(sz.Pods())), results.FormatNumber(mt), results.FormatNumber(lt),
			results.FormatNumber(median(modern, "apiserver_cpu")), results.FormatNumber(median(legacy, "apiserver_cpu")),
			results.FormatNumber(writes))
	}
	return ""
}

// todaysQPS is kube-controller-manager's default client limit, requests
// a second (--kube-api-qps).
const todaysQPS = 20

// sweepSection writes the sweep's charts, breaking points, the runs it
// left out and the sizes run on an external etcd cluster.
func sweepSection(d *document, sum *results.Summary, chart *charts.Chart) {
	d.h(2, "sweep", "Sweep: cost against cluster size")
	d.p("Scale-up of N pods, and an idle cluster of 10 controllers holding N pods between them, at each size, for each design. " +
		"Idle's pods are made by the benchmark, as the design's manager would have made them, before the manager starts; the manager " +
		"finds nothing to do (a run in which it creates or deletes a pod fails). " +
		"A design breaks where a run stops converging within its limit, or where idle's apiserver needs more CPU a minute than " +
		"the machine's cores have, idle no longer does what its design must (its expectation, judged by counts), or the 2014 " +
		"manager's ticks fall behind (its LISTs a minute below 70 % of 6·(1 + M)); its larger sizes of that scenario are then not run. A run in which the laboratory " +
		"was saturated (see its share below) is no break: it is named, and the larger sizes still run.")
	if text := floorsText(sum); text != "" {
		d.p(text)
	}
	var items []string
	for _, v := range sum.Options.Variants {
		items = append(items, fmt.Sprintf("%s: breaking point %s.", v, BreakingPoint(sum, v)))
	}
	d.list(items...)
	if slices.ContainsFunc(sum.VariantsRan(), scenario.Variant.OwnV04APIServer) {
		d.p("v0.4's own binaries run scale-up only, so that the sweep finds the largest size they reach and why they " +
			"break; idle's start, its pods before the manager, is made for our apiserver. At parity (stack-original-parity) " +
			"they have the fair fight's nodes and kubelets, as on its page (make publish PAGES=fairfight).")
	}
	if slices.ContainsFunc(sum.VariantsRan(), scenario.Variant.OnToday) {
		d.p(fmt.Sprintf("Today's stack runs scale-up only (idle's pods come before the manager, which it cannot start so yet), "+
			"and without its client limit: at kube-controller-manager's default of %d requests a second, its creates alone would "+
			"take N / %d s, %s at 100 000 pods, past the sweep's budget; stack-today at its defaults runs in make bench.",
			todaysQPS, todaysQPS, results.FormatDuration(time.Duration(100000/todaysQPS)*time.Second)))
	}
	if text := statusWriteGap(sum); text != "" {
		d.p(text)
	}
	if m := sum.Machine.FileLimit; m > 0 {
		d.p(fmt.Sprintf("Each of the cluster's processes could hold %s open files here. The 2014 manager opens one connection per pod it "+
			"creates, all at once, and the apiserver accepts each, so at more pods than that its runs can fail for file descriptors; "+
			"a failed run says so when its logs show it.", results.FormatNumber(float64(m))))
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

// floorsText says what "broke" means in a scale-up: each size's limit is
// a floor of throughput, the pods a second a run had to bring up end to
// end to converge in time, which grows with N towards the limit's pods
// a millisecond.
func floorsText(sum *results.Summary) string {
	sc, ok := sum.Scenario("scale-up")
	if !ok {
		return ""
	}
	var floors []string
	for _, sz := range sc.Sizes {
		if sz.Floor() > 0 && sz.EtcdMembers == 0 {
			floors = append(floors, fmt.Sprintf("%s pods a second at %s pods (a limit of %s)", results.FormatNumber(sz.Floor()),
				results.FormatNumber(float64(sz.Pods())), formatLimit(sz.LimitSeconds)))
		}
	}
	if len(floors) == 0 {
		return ""
	}
	return "A scale-up that breaks has not collapsed: it brought its pods up more slowly than its limit allows, a floor of " +
		strings.Join(floors, ", ") + "."
}

// floorText says what a failed run's limit means at a size: the pods a
// second it had to bring up to converge in time, so that "broke" reads
// as a throughput below that floor, not a collapse.
func floorText(sz results.SizeSummary) string {
	if sz.Floor() <= 0 {
		return ""
	}
	return fmt.Sprintf(" within its limit of %s, that is below %s pods a second end to end", formatLimit(sz.LimitSeconds), results.FormatNumber(sz.Floor()))
}

// formatLimit writes a run's limit as the pages write a length.
func formatLimit(seconds float64) string {
	return results.FormatDuration(time.Duration(seconds * float64(time.Second)))
}

// IdleBroke says why idle's figures mark a breaking point, or "". The
// apiserver cannot use more CPU than the machine has, so a design whose
// idle cost has passed the cores shows it first in the work left undone:
// the 2014 manager's ticks fall behind, and its LISTs a minute fall short
// of the 6·(1 + M) its period asks for. That is a speed, which idle's
// expectation leaves to the benchmark (it judges the LISTs per tick, which
// a busy machine does not change); the sweep judges it here, on a machine
// it has calibrated.
func IdleBroke(v scenario.Variant, sz scenario.Size, values map[string]float64, cores int) string {
	cpu := results.FormatNumber(values["apiserver_cpu_per_min"])
	if c := values["apiserver_cpu_per_min"]; cores > 0 && c > 60*float64(cores) {
		return fmt.Sprintf("the idle apiserver needed %s CPU s a minute, more than the %d cores' %d", cpu, cores, 60*cores)
	}
	sc, err := scripts.Get("idle")
	if err != nil || sz.Period <= 0 {
		return ""
	}
	if err := sc.Script.Expect(v, sz, values); err != nil {
		return fmt.Sprintf("idle no longer did what its design must (%v), with the apiserver at %s CPU s a minute", err, cpu)
	}
	if want := time.Minute.Seconds() / sz.Period.Seconds() * float64(1+sz.Controllers); findings.Is2014(v) && values["lists_per_min"] < 0.7*want {
		return fmt.Sprintf("its ticks fell behind: %.1f LISTs a minute, where its %v period asks for %.0f, with the apiserver at %s CPU s a minute",
			values["lists_per_min"], sz.Period, want, cpu)
	}
	return ""
}
