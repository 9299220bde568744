package scripts

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// The scenarios themselves run against real clusters in pkg/lab/e2e, once per
// build; here only their descriptions are checked.

func TestEveryScenarioIsFullyDescribed(t *testing.T) {
	for _, sc := range All() {
		if sc.Title == "" || sc.Reproduces == "" || sc.Explain == "" || len(sc.Full) == 0 || sc.Cluster.Nodes == 0 || sc.Script == nil {
			t.Errorf("scenario %s is missing a field", sc.Name)
		}
		for _, sz := range append(sc.Sizes(false, false), sc.Sizes(true, false)...) {
			for i, step := range sc.Script.Steps(sz) {
				if step.Title == "" || step.Say == "" || step.Run == nil {
					t.Errorf("%s step %d is incomplete", sc.Name, i+1)
				}
			}
		}
	}
}

// What a scenario says of itself beyond its steps is read by make bench,
// talk mode and the results page, which cannot check it: a variant
// misspelt in a plan line would only fail the run.
func TestEveryScenarioSaysHowItIsBenchedAndShown(t *testing.T) {
	for _, sc := range All() {
		if sc.Live.Measure == "" || sc.Live.Label == "" {
			t.Errorf("%s has no live figure: %+v", sc.Name, sc.Live)
		}
		if sc.Bench != nil {
			for _, name := range append(sc.Bench.Variants[:len(sc.Bench.Variants):len(sc.Bench.Variants)], sc.Bench.QuickVariants...) {
				if _, err := scenario.VariantByName(name); err != nil {
					t.Errorf("%s: %v", sc.Name, err)
				}
			}
		}
		for _, h := range sc.Headline {
			if h.Result == "" || h.Label == "" {
				t.Errorf("%s has an incomplete headline figure %+v", sc.Name, h)
			}
		}
	}
}

func TestEveryScenarioHasItsOwnName(t *testing.T) {
	seen := map[string]bool{}
	for _, sc := range All() {
		if sc.Name == "" || seen[sc.Name] {
			t.Errorf("scenario name %q is empty or listed twice", sc.Name)
		}
		seen[sc.Name] = true
	}
}

// Every change of the catalogue that names a scenario names one of ours.
func TestEveryChangeOfTheHistoryNamesAScenarioOfOurs(t *testing.T) {
	for _, c := range history.Changes {
		if c.Scenario == "" {
			continue
		}
		if _, err := Get(c.Scenario); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}
