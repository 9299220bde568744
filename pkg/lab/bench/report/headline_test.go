package report

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func TestTheHeadlineTakesEachScenariosFiguresInTheScenariosOrder(t *testing.T) {
	scs := []*scenario.Scenario{
		{Name: "fill", Headline: []scenario.Headline{
			{Result: "peak_goroutines", Label: "peak goroutines"},
			{Result: "peak_rss", Label: "peak RSS", LargestOnly: true},
		}},
		{Name: "quiet"},
		{Name: "drain", Headline: []scenario.Headline{{Result: "pod_deletes", Label: "pod deletes"}}},
	}
	want := []headlineFigure{
		{"fill", "peak_goroutines", "peak goroutines", false},
		{"fill", "peak_rss", "peak RSS", true},
		{"drain", "pod_deletes", "pod deletes", false},
	}
	got := headlineOf(scs)
	if len(got) != len(want) {
		t.Fatalf("headline = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("figure %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

// Two figures of one scenario under one label could not be told apart in
// the table, nor read back from a published page.
func TestNoTwoHeadlineFiguresOfAScenarioShareALabel(t *testing.T) {
	seen := map[[2]string]bool{}
	for _, h := range headline {
		key := [2]string{h.scenario, h.label}
		if seen[key] || h.figure == "" || h.label == "" {
			t.Errorf("headline figure %+v is incomplete or shares its label", h)
		}
		seen[key] = true
	}
	if len(headline) == 0 {
		t.Error("no scenario puts a figure in the headline")
	}
}
