package findings

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// fairFight is a summary of one scale-up at 1 000 pods: 2014's port at
// 3 s, today's stack at parity at 6 s and as the laboratory ran it at
// 10 s, and the ablations given, each by its key and its three times.
func fairFight(ablations map[string][]float64) *results.Summary {
	run := func(name string, times ...float64) results.VariantSummary {
		return results.VariantSummary{Variant: name, Runs: len(times), Figures: []results.Figure{fig(timeFigure, times...)}}
	}
	sz := results.SizeSummary{Label: "N=1000", Replicas: 1000, Variants: []results.VariantSummary{
		run(scenario.LegacyParity.Name, 2.9, 3.0, 3.1),
		run(scenario.StackTodayParity.Name, 5.9, 6.0, 6.1),
		run(scenario.StackTodayUnthrottled.Name, 9.8, 10.0, 10.2),
	}}
	for _, a := range scenario.Ablations {
		if times, ok := ablations[a.Key]; ok && a.On == nil {
			sz.Variants = append(sz.Variants, run(scenario.StackTodayParity.Name+"-with-"+a.Key, times...))
		}
	}
	return &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "scale-up", Sizes: []results.SizeSummary{sz}}}}
}

// TestEachAblationIsJudgedByItsOwnPrediction: an ablation inside its
// bounds holds, one outside is NOT EXPLAINED and named, and a difference
// inside the two runs' spread prices nothing.
func TestEachAblationIsJudgedByItsOwnPrediction(t *testing.T) {
	sum := fairFight(map[string][]float64{
		scenario.AblateMeter:        {7.0, 7.2, 7.4},  // 1.20 ×, predicted 1.05–1.40
		scenario.AblateLimits:       {8.9, 9.0, 9.1},  // 1.50 ×, predicted 0.90–1.10: a miss
		scenario.AblateLabWatch:     {6.0, 6.05, 6.2}, // inside the spread
		scenario.AblateDirectBinder: {4.4, 4.5, 4.6},  // 0.75 ×
	})
	runs := AblationRuns(sum)
	if len(runs) != 4 {
		t.Fatalf("%d ablations found, want 4", len(runs))
	}
	byKey := map[string]AblationRun{}
	for _, r := range runs {
		byKey[r.Ablation.Key] = r
	}
	if r := byKey[scenario.AblateMeter]; !r.Judgement.Holds || r.Price() < 1.19 || r.Price() > 1.21 {
		t.Errorf("meter: %+v, price %.2f", r.Judgement, r.Price())
	}
	if r := byKey[scenario.AblateLimits]; r.Judgement.Holds {
		t.Errorf("limits at 1.5 × held a prediction of at most 1.10")
	}
	// Inside the spread: no difference, which the lab watch's
	// prediction (0.90–1.10) holds and the meter's (1.05–1.40) would not.
	if r := byKey[scenario.AblateLabWatch]; !r.InSpread || r.Price() != 0 || !r.Judgement.Holds {
		t.Errorf("lab watch: inside the spread %t, price %.2f, holds %t", r.InSpread, r.Price(), r.Judgement.Holds)
	}
	inside := AblationRuns(fairFight(map[string][]float64{scenario.AblateMeter: {5.9, 6.2, 6.5}}))
	if len(inside) != 1 || !inside[0].InSpread || inside[0].Judgement.Holds {
		t.Errorf("a meter inside the spread held its prediction of a difference: %+v", inside)
	}
	f, ok := AblationFinding(runs)
	if !ok || f.Holds == nil || *f.Holds || f.Explained == nil || *f.Explained {
		t.Fatalf("one missed prediction: holds %v, explained %v", showBool(f.Holds), showBool(f.Explained))
	}
	if !strings.Contains(f.Why, "NOT EXPLAINED") || !strings.Contains(f.Why, "priority and fairness") || strings.Contains(f.Why, "meter in front") {
		t.Errorf("the finding names the wrong ablation: %s", f.Why)
	}
}

// TestAKeyOfBothStacksIsJudgedByItsOwnStacksPrediction: the meter put
// back on v0.4's binaries at parity is judged by the prediction for
// them, not by today's, and stays out of today's waterfall.
func TestAKeyOfBothStacksIsJudgedByItsOwnStacksPrediction(t *testing.T) {
	sum := fairFight(nil)
	sz := &sum.Scenarios[0].Sizes[0]
	for name, times := range map[string][]float64{
		scenario.StackOriginalParity.Name:                                   {17.0, 17.5, 18.0},
		scenario.StackOriginalParity.Name + "-with-" + scenario.AblateMeter: {18.5, 18.9, 19.3}, // 1.08 ×
	} {
		sz.Variants = append(sz.Variants, results.VariantSummary{Variant: name, Runs: len(times), Figures: []results.Figure{fig(timeFigure, times...)}})
	}
	runs := AblationRuns(sum)
	if len(runs) != 1 || runs[0].Parity != scenario.StackOriginalParity.Name {
		t.Fatalf("%d ablations found, want v0.4's meter: %+v", len(runs), runs)
	}
	// 1.08 × is inside v0.4's meter's prediction and under today's.
	if a := runs[0].Ablation; !runs[0].Judgement.Holds || a.On != scenario.Originals || a.Key != scenario.AblateMeter {
		t.Errorf("v0.4's meter judged by %+v: %+v", a, runs[0].Judgement)
	}
	for _, w := range Waterfalls(sum, runs) {
		for _, s := range w.Steps {
			if s.Short == scenario.AblateMeter {
				t.Errorf("v0.4's meter entered the waterfall to today's stack: %+v", w)
			}
		}
	}
}

// TestTheWaterfallAddsUpAndSaysWhenTooMuchIsLeft: its steps run from
// 2014's time to today's at parity and on to today's as run before, each
// named cause its ablation's price; what no ablation names is left, and
// over a third of the gap it is NOT EXPLAINED.
func TestTheWaterfallAddsUpAndSaysWhenTooMuchIsLeft(t *testing.T) {
	check := func(binder float64, wantUnexplained bool) Waterfall {
		t.Helper()
		sum := fairFight(map[string][]float64{
			scenario.AblateMeter:        {7.0, 7.2, 7.4},
			scenario.AblateKWOKWriters:  {8.9, 9.0, 9.1},
			scenario.AblateDirectBinder: {binder - 0.1, binder, binder + 0.1},
		})
		falls := Waterfalls(sum, AblationRuns(sum))
		if len(falls) != 1 {
			t.Fatalf("%d waterfalls, want 1", len(falls))
		}
		w := falls[0]
		total := 0.0
		for _, s := range w.Steps {
			if s.Total {
				if diff := total - s.Seconds; total != 0 && (diff > 1e-9 || diff < -1e-9) {
					t.Errorf("the steps before %s add up to %.2f s, not its %.2f s", s.Label, total, s.Seconds)
				}
				total = s.Seconds
				continue
			}
			total += s.Seconds
		}
		if w.Gap != 3 || w.Unexplained != wantUnexplained {
			t.Errorf("binder at %.1f s: gap %.2f, left %.2f, unexplained %t", binder, w.Gap, w.Left, w.Unexplained)
		}
		return w
	}
	// kube-scheduler costs 2.5 of the 3 s: 0.5 s is left, a sixth.
	w := check(3.5, false)
	if w.Left < 0.49 || w.Left > 0.51 {
		t.Errorf("left %.2f s, want 0.5", w.Left)
	}
	// kube-scheduler costs 1 s of the 3: 2 s are left, over a third.
	check(5.0, true)
}
