package findings

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// learnerSummary is a scale-up of 3 000 run by legacy reading the learner
// and by its control run reading the members, whose apiserver used
// controlCPU, with the control run's laboratory saturated or not.
func learnerSummary(controlCPU float64, saturated bool) *results.Summary {
	sum := &results.Summary{Scenarios: []results.ScenarioSummary{{Name: "scale-up", Sizes: []results.SizeSummary{{
		Label: "N=3000", Replicas: 3000, Variants: []results.VariantSummary{
			{Variant: "legacy", Runs: 2, Figures: []results.Figure{fig("apiserver_cpu", 9, 9.2), fig("time_to_running", 9.6, 9.8)}},
			{Variant: "legacy-reading-members", Runs: 2, Figures: []results.Figure{fig("apiserver_cpu", controlCPU, controlCPU), fig("time_to_running", 9.2, 9.4)}},
		}}}}}}
	for _, l := range []results.LabRun{
		{Scenario: "scale-up", Size: "N=3000", Variant: "legacy", LabShare: results.LabShare{Reader: results.ReaderLearner, LearnerCPU: 3.3}},
		{Scenario: "scale-up", Size: "N=3000", Variant: "legacy-reading-members", LabShare: results.LabShare{Reader: results.ReaderMembers}},
	} {
		if saturated && l.Reader == results.ReaderMembers {
			l.Saturated = "the benchmark's pod watch fell out of etcd's window"
		}
		sum.Lab = append(sum.Lab, l)
	}
	return sum
}

func TestTheLearnerIsPricedAgainstItsControlRun(t *testing.T) {
	f, ok := learnerFinding(learnerSummary(8.8, false))
	if !ok {
		t.Fatal("no finding for a run beside its control run")
	}
	if f.Holds == nil || !*f.Holds {
		t.Errorf("a learner within %.2f × of its control run does not hold: %+v", LearnerPriceLimit, f)
	}
	for _, want := range []string{"scale-up N=3000 legacy", "apiserver_cpu", "the learner's own CPU 3.30 CPU s"} {
		if !strings.Contains(f.Measured, want) {
			t.Errorf("measured %q lacks %q", f.Measured, want)
		}
	}
}

// A learner that costs the apiserver far more than reading the members is
// not explained away: the finding fails, and says it has no reason.
func TestALearnerDearerThanItsControlRunIsNotExplained(t *testing.T) {
	f, _ := learnerFinding(learnerSummary(5, false))
	if f.Holds == nil || *f.Holds {
		t.Fatalf("the learner's apiserver at 1.8 × its control run's holds: %+v", f)
	}
	if f.Explained == nil || *f.Explained || !strings.Contains(f.Why, "NOT EXPLAINED") {
		t.Errorf("a learner dearer than predicted is explained: %+v", f)
	}
}

// A control run that fell out of etcd's window listed every pod again, so
// it is no control: the finding leaves it out, and says so, rather than
// credit the learner with the relists.
func TestAControlRunThatFellOutOfTheWindowPricesNothing(t *testing.T) {
	f, ok := learnerFinding(learnerSummary(30, true))
	if !ok {
		t.Fatal("no finding")
	}
	if f.Holds != nil {
		t.Errorf("a saturated control run was judged: %+v", f)
	}
	if !strings.Contains(f.Measured, "not priced") {
		t.Errorf("measured %q does not say the control run was left out", f.Measured)
	}
}

func TestNoControlRunNoLearnerFinding(t *testing.T) {
	sum := learnerSummary(8.8, false)
	sum.Scenarios[0].Sizes[0].Variants = sum.Scenarios[0].Sizes[0].Variants[:1]
	if f, ok := learnerFinding(sum); ok {
		t.Errorf("a learner finding without a control run: %+v", f)
	}
}

// With the reader of the log as the default, each variant's run prices
// that reader, and its run reading the learner prices the learner, both
// against the run reading the members.
func TestBothReadersArePricedAgainstTheMembers(t *testing.T) {
	sum := learnerSummary(8.8, false)
	sz := &sum.Scenarios[0].Sizes[0]
	sz.Variants = append(sz.Variants, results.VariantSummary{Variant: "legacy-reading-learner", Runs: 2,
		Figures: []results.Figure{fig("apiserver_cpu", 20, 20), fig("time_to_running", 9.6, 9.8)}})
	sum.Lab[0].Reader, sum.Lab[0].LearnerCPU = results.ReaderWAL, 0.5
	sum.Lab = append(sum.Lab, results.LabRun{Scenario: "scale-up", Size: "N=3000", Variant: "legacy-reading-learner",
		LabShare: results.LabShare{Reader: results.ReaderLearner, LearnerCPU: 3.3}})
	f, ok := learnerFinding(sum)
	if !ok {
		t.Fatal("no finding")
	}
	for _, want := range []string{"scale-up N=3000 legacy (the reader of the log)", "the reader of the log's own CPU 0.50 CPU s",
		"scale-up N=3000 legacy-reading-learner (the learner)", "the learner's own CPU 3.30 CPU s"} {
		if !strings.Contains(f.Measured, want) {
			t.Errorf("measured %q lacks %q", f.Measured, want)
		}
	}
	// The learner's apiserver at 2.3 × the members' fails, the reader's
	// does not hide it.
	if f.Holds == nil || *f.Holds {
		t.Errorf("a learner at 2.3 × its control run holds beside a reader that does: %+v", f)
	}
}
