package results

import (
	"encoding/json"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// A variant's summary keeps the variant as it ran, launcher included, and
// reads it back from results.json as it was: a control run named after
// another variant is what it was, not what its name would parse to now.
func TestASummaryKeepsItsVariantAsItRan(t *testing.T) {
	ran := scenario.StackTodayUnthrottled
	ran.Name, ran.Unmetered = "stack-today-unthrottled-unmetered", true
	data, err := json.Marshal(VariantSummary{Variant: ran.Name, Described: ran})
	if err != nil {
		t.Fatal(err)
	}
	var back VariantSummary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	v := back.Of()
	if v.Name != ran.Name || !v.Unmetered || !v.Runs(scenario.TodayStack) || !v.OnToday() || v.CountsRequests() {
		t.Errorf("read back %+v from %s, want %s on today's stack, unmetered", v, data, ran.Name)
	}
	// A name no variant has, run by the history as a variant of its own,
	// keeps what it was described as.
	history := scenario.Variant{Name: "without-expectations", Design: scenario.Modern.Design, ManagerArgs: []string{"-without=expectations"}}
	if got := (VariantSummary{Variant: history.Name, Described: history}).Of(); got.Design != scenario.Modern.Design {
		t.Errorf("the history's variant is held to design %q, want %q", got.Design, scenario.Modern.Design)
	}
}

// A summary made before summaries kept their variant (a page published
// then) is read by the variant's name, once, and a name no variant has
// stands for a design of its own.
func TestASummaryWithoutItsVariantIsReadByName(t *testing.T) {
	if v := (VariantSummary{Variant: "stack-original"}).Of(); v.Design != scenario.Legacy.Design || !v.Runs(scenario.Originals) {
		t.Errorf("stack-original read as %+v", v)
	}
	if v := (VariantSummary{Variant: "before-2015"}).Of(); v.Name != "before-2015" || v.Design != "before-2015" {
		t.Errorf("a name no variant has read as %+v", v)
	}
}
