package scripts

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// api-errors' expectation of the 2014 manager: N creates on every sync
// the manager counted during the fault, but one sync at each edge of the
// window, which can be counted inside and send nothing (a tick that read
// the controller just before the resize) or send its creates after it.
func TestAPIErrorsExpectsNOnEverySyncButOneAtEachEdge(t *testing.T) {
	sz := scenario.Size{Replicas: 50}
	for _, tc := range []struct {
		name           string
		syncs, creates float64
		want           string // "" when it holds
	}{
		{"every sync sent N", 6, 300, ""},
		{"a sync cut at each edge", 7, 250, ""},
		{"one edge cut halfway", 6, 225, ""},
		{"a round missing inside the window", 7, 200, "200 pod creates in 7 syncs"},
		{"one create a sync, as slow start sends", 7, 7, "7 pod creates in 7 syncs"},
		{"too few syncs to tell", 2, 100, "100 pod creates in 2 syncs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := apiErrorsScript{}.Expect(scenario.Legacy, sz, map[string]float64{
				"posts_during_fault": tc.creates, "syncs_during_fault": tc.syncs, "creates_during_fault": tc.creates, "ticks_during_fault": tc.syncs - 1,
			})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Expect = %v, want it to hold", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Expect = %v, want an error saying %q", err, tc.want)
			}
		})
	}
}
