package scripts

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/history"
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
