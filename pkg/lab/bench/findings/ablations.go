package findings

import (
	"fmt"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// The fair fight's ablations (scenario.Ablation) judged, and the waterfall
// they build: from 2014's time to all running at parity to today's, one
// step per named cause.

// timeFigure is the figure ablations predict and the waterfall adds up.
const timeFigure = "time_to_running"

// AblationRun is one ablation's control run beside its parity run at one
// size, held to its prediction.
type AblationRun struct {
	// Where names the scenario and size.
	Where string
	// Parity is the parity variant, Ablation what its control run set.
	Parity   string
	Ablation scenario.Ablation
	// With and Without are the time to all running of the control run
	// and of the parity run.
	With, Without results.Figure
	// Judgement holds the prediction against the medians.
	Judgement results.Judgement
	// InSpread says the two runs' ranges overlap: the difference is
	// inside the spread and is reported as none.
	InSpread bool
}

// Price is what the ablation adds to the parity run's time, in seconds
// (negative where it takes time away); zero inside the spread.
func (a AblationRun) Price() float64 {
	if a.InSpread {
		return 0
	}
	return a.With.Median - a.Without.Median
}

// Text says the ablation's result in one line.
func (a AblationRun) Text() string {
	return fmt.Sprintf("%s: %s s against %s s at parity (%s)", a.Ablation.Says, RangeText(a.With), RangeText(a.Without), a.Judgement.Measured)
}

// AblationRuns finds every ablation that ran beside its parity variant,
// at every size, and judges each.
func AblationRuns(sum *results.Summary) []AblationRun {
	var out []AblationRun
	for _, a := range scenario.Ablations {
		for _, pair := range controlPairs(sum, "-with-"+a.Key) {
			// A key names one ablation for each launcher: this one's
			// runs are those of its launcher's parity variant.
			if _, of, ok := scenario.AblationOf(pair.control.Variant); !ok || of != a {
				continue
			}
			with, ok1 := pair.control.Figure(timeFigure)
			without, ok2 := pair.variant.Figure(timeFigure)
			if !ok1 || !ok2 || without.Median <= 0 {
				continue
			}
			// A difference inside the two runs' spread is no difference,
			// and is judged as a ratio of 1: a prediction of some
			// difference then misses.
			inSpread := with.Min <= without.Max && without.Min <= with.Max
			measured := with.Median
			if inSpread {
				measured = without.Median
			}
			sides := results.Sides{Theirs: "with it", Ours: "at parity"}
			j := results.Ratio("s", a.Low, a.High).Judge(sides, "s", without.Median, measured)
			j.Control = pair.control.Variant
			if inSpread {
				j.Measured = fmt.Sprintf("no difference: the medians' ratio, %.2f, is inside the two runs' spread", with.Median/without.Median)
			}
			out = append(out, AblationRun{
				Where: pair.scenario.Name + " " + pair.size.Label, Parity: pair.variant.Variant, Ablation: a,
				With: with, Without: without, Judgement: j, InSpread: inSpread,
			})
		}
	}
	return out
}

// AblationFinding judges every ablation's prediction: one that misses is
// NOT EXPLAINED, since the reason given for it was wrong.
func AblationFinding(runs []AblationRun) (results.Finding, bool) {
	if len(runs) == 0 {
		return results.Finding{}, false
	}
	f := results.Finding{Topic: "what each ablation of a stack at parity costs",
		Expect: "each ablation sets one thing on one side (today's stack, or v0.4's binaries) otherwise than parity does and predicts, before it runs, its " +
			"time to all running over the parity run's: " + ablationPredictions() + "."}
	var c checks
	var parts, held []string
	for _, r := range runs {
		parts = append(parts, r.Where+", "+r.Text())
		c.check(r.Judgement.Holds, "at %s, %s: predicted %s, measured %s (%s)", r.Where, r.Ablation.Says, r.Judgement.Predicted,
			r.Judgement.Measured, r.Ablation.Why)
		if r.Judgement.Holds {
			held = append(held, r.Ablation.Key)
		}
	}
	f.Measured = strings.Join(parts, "; ") + "."
	c.settle(&f, fmt.Sprintf("%d of %d ablations as predicted", len(held), len(runs)),
		"A prediction that misses names a cause the laboratory does not understand yet: its size in the waterfall stands, "+
			"its reason does not.")
	return f, true
}

func ablationPredictions() string {
	var out []string
	for _, a := range scenario.Ablations {
		out = append(out, fmt.Sprintf("%s between %.2f and %.2f × (%s)", a.Says, a.Low, a.High, a.Why))
	}
	return strings.Join(out, "; ")
}

// LeftAllowed is the share of the gap at parity the ablations may leave
// unnamed before the waterfall says NOT EXPLAINED.
const LeftAllowed = 1.0 / 3

// Step is one bar of a waterfall.
type Step struct {
	// Label names the cause, or the stack a total stands for; Short in a
	// few words, under its bar in a chart.
	Label, Short string
	// Seconds is the step's size: a total's whole time, a cause's
	// difference.
	Seconds float64
	// Total marks a bar that stands on the axis (a stack's time);
	// the others float on the running sum.
	Total bool
	// Note says how the step was measured.
	Note string
}

// Waterfall goes from a 2014 variant's time to all running at parity to
// today's stack as the laboratory ran it, at one size, one step per named
// cause.
type Waterfall struct {
	Where string
	Steps []Step
	// Gap is today's stack at parity less 2014's; Left the part of it
	// no ablation names, which the kube-apiserver profile labels.
	Gap, Left float64
	// Unexplained says what is left is over LeftAllowed of the gap.
	Unexplained bool
}

// The parity variants a waterfall starts and ends at.
var (
	waterfallFrom = []string{scenario.StackOriginalParity.Name, scenario.LegacyParity.Name}
	waterfallTo   = scenario.StackTodayParity.Name
	asRanBefore   = scenario.StackTodayUnthrottled.Name
)

// Waterfalls builds, at every size where a 2014 parity variant ran beside
// today's at parity, the waterfall between them from the ablations that
// ran there (runs, from AblationRuns).
func Waterfalls(sum *results.Summary, runs []AblationRun) []Waterfall {
	var out []Waterfall
	for i := range sum.Scenarios {
		sc := &sum.Scenarios[i]
		for j := range sc.Sizes {
			sz := &sc.Sizes[j]
			where := sc.Name + " " + sz.Label
			to, ok := MedianOf(sz, waterfallTo, timeFigure)
			if !ok {
				continue
			}
			price := map[string]float64{}
			for _, r := range runs {
				if r.Where == where && r.Parity == waterfallTo {
					price[r.Ablation.Key] = r.Price()
				}
			}
			for _, fromName := range waterfallFrom {
				from, ok := MedianOf(sz, fromName, timeFigure)
				if !ok {
					continue
				}
				out = append(out, waterfall(where, fromName, from.Median, to.Median, price, sz))
			}
		}
	}
	return out
}

func waterfall(where, fromName string, from, to float64, price map[string]float64, sz *results.SizeSummary) Waterfall {
	w := Waterfall{Where: where, Gap: to - from}
	w.Steps = append(w.Steps, Step{Label: fromName, Short: fromName, Seconds: from, Total: true, Note: "median time to all running"})
	named := 0.0
	// Inside the gap at parity: what today's stack is built with that
	// 2014's is not, each priced by an ablation that takes it away.
	if p, ok := price[scenario.AblateDirectBinder]; ok {
		w.Steps = append(w.Steps, Step{Label: "kube-scheduler, against binding directly", Short: "kube-scheduler", Seconds: -p,
			Note: "the parity run less its direct-binding control run"})
		named += -p
	}
	w.Left = w.Gap - named
	w.Steps = append(w.Steps, Step{Label: "today's control plane itself, named by kube-apiserver's profile", Short: "the rest (profile)", Seconds: w.Left,
		Note: "what no ablation names: the gap at parity less the steps above"})
	w.Unexplained = w.Gap > 0 && w.Left > LeftAllowed*w.Gap
	w.Steps = append(w.Steps, Step{Label: waterfallTo, Short: waterfallTo, Seconds: to, Total: true, Note: "median time to all running"})
	// Past parity: the laboratory's handicaps put back one at a time.
	sum := to
	for _, a := range scenario.Ablations {
		if !a.Handicap {
			continue
		}
		if p, ok := price[a.Key]; ok {
			w.Steps = append(w.Steps, Step{Label: a.Says, Short: a.Key, Seconds: p, Note: "its control run less the parity run"})
			sum += p
		}
	}
	if before, ok := MedianOf(sz, asRanBefore, timeFigure); ok {
		w.Steps = append(w.Steps, Step{Label: "the handicaps together, less their sum", Short: "not additive", Seconds: before.Median - sum,
			Note: "they do not simply add up"})
		w.Steps = append(w.Steps, Step{Label: asRanBefore, Short: asRanBefore, Seconds: before.Median, Total: true, Note: "as the laboratory ran it before parity"})
	}
	return w
}
