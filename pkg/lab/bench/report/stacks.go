package report

// The report's two comparisons, each named for what it isolates: "the
// design alone" (every manager on our v0.4 apiserver and hollow nodes:
// the findings and each scenario's tables) and "stack against stack"
// (2014's whole control plane against today's, pkg/lab/stack/today).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// designAloneText says in one line what the design comparison isolates.
const designAloneText = "The design alone: every manager on our v0.4 apiserver and hollow nodes. Only the controller changes, " +
	"so a difference is the controller's, or the v0.4 read path's cost to it; the findings and each scenario's tables below " +
	"are this comparison."

// stacksText says in one line what the stack comparison isolates.
const stacksText = "Stack against stack: 2014's whole control plane (our port of the v0.4 apiserver, manager and hollow nodes, " +
	"or the original binaries) against today's whole real one (kube-apiserver with its watch cache, kube-controller-manager, " +
	"kube-scheduler, etcd v3 and KWOK's nodes, built by make today), each on the read path its design was made for: " +
	"a difference is the whole stack's, not the controller's alone."

// stackSizes returns, for each scenario size that ran on both sides, the
// size with only the stack comparison's variants, 2014's first.
func stackSizes(sum *results.Summary) (scenarios []string, sizes []results.SizeSummary) {
	for _, sc := range sum.Scenarios {
		for _, sz := range sc.Sizes {
			// Each side is the variants that stand for a whole control
			// plane of it (scenario.Variant.WholeStack), in the order
			// they ran.
			var old, now []results.VariantSummary
			for _, v := range sz.Variants {
				switch v.Of().WholeStack {
				case scenario.Stack2014:
					old = append(old, v)
				case scenario.StackOfToday:
					now = append(now, v)
				}
			}
			if len(old) == 0 || len(now) == 0 {
				continue
			}
			sz.Variants = append(old, now...)
			scenarios, sizes = append(scenarios, sc.Name), append(sizes, sz)
		}
	}
	return scenarios, sizes
}

// stacksSection writes "Stack against stack": for every scenario size that
// ran on both sides, its figures side by side, and what is not measured
// the same way on the two.
func stacksSection(d *document, sum *results.Summary) {
	d.h(2, "stack-against-stack", "Stack against stack")
	d.p(stacksText)
	names, sizes := stackSizes(sum)
	if len(sizes) == 0 {
		d.note("Nothing to compare in this run: it takes a 2014 variant (legacy or stack-original) and one on today's stack " +
			"(stack-today, stack-today-unthrottled) at the same scenario and size, for instance " +
			"`rcbench bench -quick -scenarios=scale-up,idle -variants=legacy,stack-today` after make today.")
		// Ablations of one side still have their parity runs to stand by.
		fairFightSection(d, sum)
		return
	}
	d.p("stack-today runs kube-controller-manager on its own defaults, a client limit of 20 requests a second with bursts of 30 " +
		"included, as a real cluster does; stack-today-unthrottled raises that limit out of reach, to set beside legacy. " +
		"On today's stack a meter in front of kube-apiserver counts every request by verb, resource and the process that " +
		"sent it, under the names our apiserver counts ours by, so the request figures mean the same on both sides.")
	d.list(
		"controller-manager is kube-controller-manager's whole process: besides the replication manager and the endpoints "+
			"controllers (ours run those two), it runs the garbage collector, the endpoint-slice, service-account, namespace and node "+
			"lifecycle controllers that today's cluster needs; its requests, goroutines, memory and CPU are all of theirs. "+
			"On modern-today and modern-today-unthrottled it is our modern controller-manager alone, against kube-apiserver "+
			"through client-go, in place of those three controllers; a kube-controller-manager of the others runs beside it "+
			"and is counted apart, so its figures leave them out.",
		"The laboratory reads kube-controller-manager's metrics and /proc four times a second, ours every 25 ms to catch "+
			"their goroutine storms: its metrics are far larger than ours, and read as often as ours they took most of its "+
			"CPU in a scale-up of 1 000 pods at its defaults (measured once, in a run of this laboratory that no page "+
			"publishes). Its goroutine, memory and socket peaks are read at that pace.",
		"apiserver is kube-apiserver with the etcd member it stores in, as ours is counted with its embedded etcd.",
		"– marks a figure not measured the same way on that stack, and so left out: hollow_node_cpu on today's stack, which has "+
			"no hollow nodes; kwok_cpu and scheduler_cpu on 2014's, which has neither (its hollow nodes do both jobs).",
		"The laboratory reads the pods of every stack from the write-ahead log of the etcd member their apiserver stores in, "+
			"in a process of its own (the laboratory's share names it), unless a variant or -lab_reader says otherwise; v0.4's "+
			"own apiserver stores in a member of its own, etcd 3.5 as the others, in a process of its own, read the same way.",
		"A pod counts as running when KWOK has written phase Running, which it does as soon as the pod is bound; our hollow nodes "+
			"start a pod 200 ms after binding it, except at parity, where both sides get the same delay (below).",
	)
	var unmetered []string
	for _, v := range sum.VariantsRan() {
		if v.Unmetered {
			unmetered = append(unmetered, v.Name)
		}
	}
	if len(unmetered) > 0 {
		d.p(strings.Join(unmetered, ", ") + " run today's stack without the meter (at parity, or to price it): left out are " +
			scenario.NotMetered + ".")
	}
	if slices.Contains(sum.Options.Variants, scenario.External.Name) {
		d.p("cluster is the cluster rcbench bench -kubeconfig named, measured from outside, in a namespace of the run's own: left out are " +
			scenario.NotMeasuredOutside + ".")
	}
	for i, sz := range sizes {
		d.h(3, "stacks-"+names[i]+"-"+results.Slug(sz.Label), fmt.Sprintf("%s %s, stack against stack", names[i], sz.Label))
		figureTable(d, sz)
	}
	fairFightSection(d, sum)
}

// comparisonLine says, where a run holds variants of both comparisons,
// which columns belong to which; "" where every variant ran on our stack.
func comparisonLine(sum *results.Summary) string {
	var today []string
	for _, v := range sum.VariantsRan() {
		if v.OnToday() {
			today = append(today, v.Name)
		}
	}
	if len(today) == 0 {
		return ""
	}
	return fmt.Sprintf("Which comparison: the columns of %s ran on today's whole control plane and belong to \"Stack against stack\" "+
		"(set beside legacy there, in `report.md`); every other column to \"the design alone\", every manager on our v0.4 apiserver.",
		strings.Join(today, " and "))
}
