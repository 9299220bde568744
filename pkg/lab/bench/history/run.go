package history

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	catalogue "github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

// The outcomes of a change's row.
const (
	appearedYes   = "yes"
	appearedNoise = "within noise"
	appearedNo    = "no"
	notMeasured   = "not measured"
)

// noEffect is why a change's effect may not show in our stack, and what
// that reason predicts of the figure without the change against with it.
type noEffect struct {
	why     string
	predict results.Prediction
	// onWith holds the prediction to the figure with the change alone.
	onWith bool
}

// whyNoEffect says, for a change whose effect may not show in our stack,
// why not, and what that predicts. It is printed only when the effect did
// not appear, or only within noise, and held to its prediction there.
var whyNoEffect = map[string]noEffect{
	// The history run of 2026-11-26 measured 200 creates with and without.
	"expectations": {why: "a sync repeats creates only if it runs before the informer has seen the last batch; " +
		"on loopback our apiserver's watch event follows a create within milliseconds, and the workqueue " +
		"holds the controller's key until the sync in progress ends, so that window is a race that a run " +
		"may miss, and a missed race repeats no create; pkg/controller's " +
		"TestWithoutExpectationsASyncBeforeThePodsAreSeenCreatesThemAgain shows the behaviour without the race",
		predict: results.Ratio("requests", 1, 1.1)},
	"wait-for-caches": {why: "the restart scenario makes every LIST of pods 3 s slower after the restart, so that the " +
		"first sync runs on an empty cache unless the machine stalls the manager for longer than that between " +
		"listing its controllers and syncing one; a stalled run creates no extra pod",
		predict: results.Difference("pods", 0, 25)},
	"burst-cap": {why: "slow start already keeps the largest batch at about half the creates, so the cap changes " +
		"the peak only when a controller asks for many more than 500 pods; -quick scales the cap down to 50 " +
		"for N=100, where the difference is a few goroutines",
		predict: results.Difference("goroutines", -20, 20)},
	"qps": {why: "the client's limit matters only above its burst of 30 requests",
		predict: results.Ratio("s", 0.9, 1.1)},
	"controller-ref": {why: "the fight needs both controllers to sync while they overlap, which a short " +
		"window can miss; a missed fight deletes nothing",
		predict: results.Difference("requests", 0, 20)},
	"status-writes": {why: "the manager writes status only when a ready or available count changes; " +
		"if no write happened in the run, there is nothing to remove",
		predict: results.Value("requests", 0, 0), onWith: true},
}

// explainNoEffect holds a change's reason for not showing its effect to
// what it predicts, and says both; a change with no reason, or whose
// figures its reason does not predict, is NOT EXPLAINED.
func explainNoEffect(name, unit string, with, without results.Stats) (string, *results.Judgement) {
	r, ok := whyNoEffect[name]
	if !ok {
		return "**NOT EXPLAINED**: the effect did not show, and no reason is known.", nil
	}
	var j results.Judgement
	if r.onWith {
		j = r.predict.Judge(results.Sides{Theirs: "with it"}, unit, 0, with.Median)
	} else {
		j = r.predict.Judge(results.Sides{Theirs: "without it", Ours: "with it"}, unit, with.Median, without.Median)
	}
	if !j.Holds {
		return fmt.Sprintf("**NOT EXPLAINED**: its reason predicts %s; measured %s. The reason given: %s.", j.Predicted, j.Measured, r.why), &j
	}
	return fmt.Sprintf("%s. Predicted: %s; measured: %s.", r.why, j.Predicted, j.Measured), &j
}

// Run runs the history plan and writes its report into a new
// timestamped directory under Opts.Out, which it returns.
func Run(ctx context.Context, r *runner.Runner) (string, *results.HistorySummary, error) {
	hp, err := BuildPlan(r.Opts)
	if err != nil {
		return "", nil, err
	}
	started, dir, err := r.Start()
	if err != nil {
		return "", nil, err
	}
	hs := &results.HistorySummary{Summary: results.Summary{Started: started, Notes: hp.Notes, Choices: hp.Choices, Commit: r.Commit()}, TimelineSize: hp.TimelineSize}
	sum := &hs.Summary
	sum.Machine = runner.Machine()
	sum.Options.Runs = hp.RunsEach
	sum.Options.Quick, sum.Options.Seed = r.Opts.Quick, r.Opts.Seed
	sum.Options.Scenarios, sum.Options.Variants = runner.PlanNames(hp.Plan)
	r.Say("history: %d changes measured with and without, a timeline of %d steps; %d scenario runs, output in %s",
		len(hp.Changes), len(hp.Timeline), hp.Runs(), dir)

	runs, _ := r.RunItems(ctx, dir, hp.Plan, runtime.NumCPU())
	if ctx.Err() != nil {
		sum.Interrupted = true
		sum.Notes = append(sum.Notes, fmt.Sprintf("Interrupted after %d of %d runs: the figures below are of the runs that finished.", runner.CountOK(runs), hp.Runs()))
	}
	sum.Scenarios, sum.Failures = runner.Aggregate(hp.Plan, runs)
	sum.Lab = runner.LabRuns(runs)
	sum.Profiles = runner.Profiles(runs)
	hs.Changes, hs.Unmeasured = changeResults(sum, hp)
	hs.Timeline = timelineResults(sum, hp)
	sum.Machine.LoadAfter = runner.LoadAverage()
	sum.Finished = r.Now()
	sum.Seconds = sum.Finished.Sub(started).Seconds()
	if err := report.WriteHistory(dir, hs, r.Opts.PNG); err != nil {
		return dir, hs, err
	}
	runner.LinkLatest(r.Opts.Out, dir)
	if err := r.Publish(dir, "report.md", sum.Interrupted); err != nil {
		return dir, hs, err
	}
	return dir, hs, nil
}

// figureOf finds a variant's figure at a scenario size; the timeline and
// the changes measured at its size share the label.
func figureOf(sum *results.Summary, scenarioName, size, variant, figure string) (results.Figure, bool) {
	sc, ok := sum.Scenario(scenarioName)
	if !ok {
		return results.Figure{}, false
	}
	for i := range sc.Sizes {
		if sc.Sizes[i].Label != size {
			continue
		}
		if v, ok := sc.Sizes[i].Variant(variant); ok {
			if f, ok := v.Figure(figure); ok {
				return f, true
			}
		}
	}
	return results.Figure{}, false
}

// changeResults fills one row per change from the aggregated runs.
func changeResults(sum *results.Summary, hp *Plan) (measured, unmeasured []results.ChangeResult) {
	row := func(c catalogue.Change) results.ChangeResult {
		exp := "lower without it"
		if c.WithoutMore {
			exp = "higher without it"
		}
		return results.ChangeResult{Name: c.Name, Title: c.Title, Date: c.Date, Refs: c.Refs(), What: c.What,
			Scenario: c.Scenario, Figure: c.Figure, Expected: exp}
	}
	for _, hc := range hp.Changes {
		res := row(hc.Change)
		res.Size = hc.Size
		with, okW := figureOf(sum, hc.Change.Scenario, hc.Size, hc.With, hc.Change.Figure)
		without, okO := figureOf(sum, hc.Change.Scenario, hc.Size, hc.Without, hc.Change.Figure)
		res.Appeared = notMeasured
		if okW && okO {
			w, o := with.Stats, without.Stats
			res.With, res.Without, res.Unit = &w, &o, with.Unit
			res.Appeared = appeared(hc.Change.WithoutMore, w, o)
			res.Better = "with it"
			if hc.Change.WithoutMore != with.LowerIsBetter {
				res.Better = strings.TrimSuffix("without it: "+hc.Change.Cost, ": ")
			}
		}
		if res.Appeared == notMeasured {
			res.Note = "the runs failed; see the failures above"
		}
		if res.Appeared == appearedNo || res.Appeared == appearedNoise {
			res.Note, res.Judgement = explainNoEffect(hc.Change.Name, res.Unit, *res.With, *res.Without)
		}
		if len(hc.Args) > 0 {
			res.Note = strings.TrimSpace(fmt.Sprintf("Both runs with %s. %s", strings.Join(hc.Args, " "), res.Note))
		}
		measured = append(measured, res)
	}
	for _, c := range hp.Unmeasured {
		res := row(c)
		res.Appeared = notMeasured
		res.Note = c.Unshown
		if !c.Switchable() {
			res.Note = "It cannot be switched off: " + c.NoSwitch + "."
		}
		unmeasured = append(unmeasured, res)
	}
	return measured, unmeasured
}

// appeared compares the medians, and calls a move whose runs overlap
// within noise.
func appeared(withoutMore bool, with, without results.Stats) string {
	moved := without.Median > with.Median
	overlap := without.Min <= with.Max
	if !withoutMore {
		moved = without.Median < with.Median
		overlap = without.Max >= with.Min
	}
	switch {
	case !moved:
		return appearedNo
	case overlap && (len(with.Values) > 1 || len(without.Values) > 1):
		return appearedNoise
	}
	return appearedYes
}

func timelineResults(sum *results.Summary, hp *Plan) []results.TimelineResult {
	var out []results.TimelineResult
	for _, st := range hp.Timeline {
		tr := results.TimelineResult{TimelineStep: st}
		for _, name := range results.TimelineFigures {
			if f, ok := figureOf(sum, results.TimelineScenario, hp.TimelineSize, st.Variant, name); ok {
				tr.Figures = append(tr.Figures, f)
			}
		}
		out = append(out, tr)
	}
	return out
}
