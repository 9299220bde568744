package scenario

import "testing"

// The scenarios themselves run against real clusters in pkg/lab/e2e, once per
// build; here only their descriptions are checked.

func TestEveryScenarioIsFullyDescribed(t *testing.T) {
	for _, sc := range All() {
		if sc.Title == "" || sc.Reproduces == "" || sc.Explain == "" || sc.Sizes == nil || sc.Cluster == nil || sc.Steps == nil || sc.Results == nil {
			t.Errorf("scenario %s is missing a field", sc.Name)
		}
		for _, sz := range append(sc.Sizes(false, false), sc.Sizes(true, false)...) {
			for i, step := range sc.Steps(sz) {
				if step.Title == "" || step.Say == "" || step.Run == nil {
					t.Errorf("%s step %d is incomplete", sc.Name, i+1)
				}
			}
		}
	}
	if len(All()) != len(presentation) {
		t.Errorf("%d scenarios registered, %d in the presentation order", len(All()), len(presentation))
	}
}
