package findings

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// readingMembers ends the name of a control run of the laboratory's
// learner: the variant before it, with the laboratory reading the members
// the apiserver stores in directly (scenario.VariantByName).
const readingMembers = "-reading-" + stack.LabMembers

// readingLearner ends the name of a control run of the learner where the
// variant before it reads pods another way (the reader of the log, by
// default).
const readingLearner = "-reading-" + stack.LabLearner

// LearnerPriceLimit bounds what a reader (the learner, or the reader of
// the log) may change in the apiserver's CPU and the time to all running,
// against the same run reading the members, either way.
const LearnerPriceLimit = 1.25

// learnerFinding prices the laboratory's readers where a run has its
// control runs: each variant, read as its runs record (the reader of the
// write-ahead log by default), beside "<variant>-reading-members" at the
// same size, and "<variant>-reading-learner" beside the same. Reading
// the members directly, the laboratory's two pod watches are served by
// the apiserver's embedded member, inside its process; through a reader
// of its own they are not. The learner adds one follower for the member
// to send every write to; the reader of the log adds nothing to the
// member but its own CPU on the same cores. So the apiserver's CPU and
// the time to all running should move by less than LearnerPriceLimit
// either way, and what a reader costs is its own process, in the
// laboratory's share. A control run whose watches fell out of etcd's
// window, as they do in a burst of over 1 000 writes, listed every pod
// again, which the apiserver paid for: it is no control, and is left
// out, saying so.
func learnerFinding(sum *results.Summary) (results.Finding, bool) {
	f := results.Finding{Topic: "what the laboratory's readers cost",
		Expect: fmt.Sprintf("against the same run reading the members directly (`<variant>%s`), reading pods through a reader of "+
			"the laboratory's own (the write-ahead log's, or the learner, `<variant>%s`) moves the laboratory's two pod watches out of the "+
			"apiserver's embedded member; the learner also adds one follower for it to send every write to: the apiserver's CPU and the "+
			"time to all running should each stay within %.2f × either way, and the reader's own process is its price, in the "+
			"laboratory's share below.", readingMembers, readingLearner, LearnerPriceLimit)}
	saturated := map[string]bool{}
	readers := map[string]string{}
	readerCPU := map[string][]float64{}
	for _, l := range sum.Lab {
		key := l.Scenario + " " + l.Size + " " + l.Variant
		if l.Saturated != "" {
			saturated[key] = true
		}
		if l.Reader == results.ReaderLearner || l.Reader == results.ReaderWAL {
			readers[key] = l.Reader
			readerCPU[key] = append(readerCPU[key], l.LearnerCPU)
		}
	}
	var c checks
	var parts, verdicts []string
	for _, pair := range readerPairs(sum) {
		sc, sz, v, control := pair.scenario, pair.size, pair.variant, pair.control
		key := sc.Name + " " + sz.Label + " " + v.Variant
		reader := readers[key]
		if reader == "" {
			continue
		}
		where := pair.where()
		if saturated[sc.Name+" "+sz.Label+" "+control.Variant] {
			parts = append(parts, where+": not priced, its control run's pod watches fell out of etcd's window and listed "+
				"every pod again, at the apiserver's cost, which is why the laboratory reads a reader of its own")
			continue
		}
		name := "the learner"
		if reader == results.ReaderWAL {
			name = "the reader of the log"
		}
		var figs []string
		for _, fig := range []string{"apiserver_cpu", "time_to_running"} {
			with, ok1 := v.Figure(fig)
			without, ok2 := control.Figure(fig)
			if !ok1 || !ok2 || without.Median <= 0 {
				continue
			}
			ratio := with.Median / without.Median
			figs = append(figs, fmt.Sprintf("%s %s against %s %s (%.2f ×)", fig, RangeText(with), RangeText(without), with.Unit, ratio))
			c.check(ratio <= LearnerPriceLimit && ratio >= 1/LearnerPriceLimit,
				"at %s %s's run took %.2f × the %s of the run reading the members", where, name, ratio, fig)
			if fig == "apiserver_cpu" {
				verdicts = append(verdicts, fmt.Sprintf("%s apiserver CPU %.2f ×", where, ratio))
			}
		}
		if cpu := readerCPU[key]; len(cpu) > 0 {
			med := results.Summarize(cpu).Median
			figs = append(figs, fmt.Sprintf("%s's own CPU %s CPU s", name, results.FormatNumber(med)))
		}
		parts = append(parts, where+" ("+name+"): "+strings.Join(figs, ", "))
	}
	if len(parts) == 0 {
		return results.Finding{}, false
	}
	f.Measured = strings.Join(parts, "; ") + "."
	if len(verdicts) == 0 {
		f.Verdict = "not priced: every control run fell out of etcd's window"
		return f, true
	}
	c.settle(&f, strings.Join(verdicts, ", ")+", with a reader of the laboratory's own against reading the members", "")
	return f, true
}

// readerPairs are the runs a reader is priced by: each variant beside its
// run reading the members, and its run reading the learner beside the
// same.
func readerPairs(sum *results.Summary) []controlPair {
	pairs := controlPairs(sum, readingMembers)
	var out []controlPair
	for _, p := range pairs {
		out = append(out, p)
		if l, ok := p.size.Variant(p.variant.Variant + readingLearner); ok && l.Runs > 0 {
			out = append(out, controlPair{p.scenario, p.size, l, p.control})
		}
	}
	return out
}

// LearnerPriceText says what the calibration measured the learner to cost
// the bare apiserver.
func LearnerPriceText(price float64, with, without results.Level) string {
	return fmt.Sprintf("costs the bare apiserver %.0f %% of its creates at %d clients (%s pods/s with it, %s without), "+
		"and a run reading pods through it (-lab_reader=learner, and an apiserver on members started apart) includes that share in its apiserver's CPU and times",
		100*price, results.FloorClients, results.FormatNumber(with.PerSecond), results.FormatNumber(without.PerSecond))
}

// controlPair is a variant beside its control run at one size: the
// variant's name with a suffix after it.
type controlPair struct {
	scenario         *results.ScenarioSummary
	size             *results.SizeSummary
	variant, control *results.VariantSummary
}

func (p controlPair) where() string {
	return fmt.Sprintf("%s %s %s", p.scenario.Name, p.size.Label, p.variant.Variant)
}

// controlPairs finds, at every size, each variant that ran beside its
// control run "<variant><suffix>", both with runs that finished.
func controlPairs(sum *results.Summary, suffix string) []controlPair {
	var out []controlPair
	for i := range sum.Scenarios {
		sc := &sum.Scenarios[i]
		for j := range sc.Sizes {
			sz := &sc.Sizes[j]
			for k := range sz.Variants {
				control := &sz.Variants[k]
				base, ok := strings.CutSuffix(control.Variant, suffix)
				if !ok {
					continue
				}
				if v, ok := sz.Variant(base); ok && v.Runs > 0 && control.Runs > 0 {
					out = append(out, controlPair{sc, sz, v, control})
				}
			}
		}
	}
	return out
}
