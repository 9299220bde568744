package scripts

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TestOnlyScaleUpAndIdleRunOnTodaysStack: the scenarios whose steps need
// no more than Cluster run there; every other one says why not.
func TestOnlyScaleUpAndIdleRunOnTodaysStack(t *testing.T) {
	for _, sc := range All() {
		why := scenario.NotOnToday(sc)
		switch sc.Name {
		case "scale-up", "idle":
			if why != "" {
				t.Errorf("%s does not run on today's stack: %s", sc.Name, why)
			}
		default:
			if why == "" {
				t.Errorf("%s claims to run on today's stack", sc.Name)
			}
		}
	}
}

// TestAScaleUpOnTodaysStackIsJudgedByItsExtraPodsNotItsGoroutines:
// kube-controller-manager's goroutines are its whole process's, so the
// bound on our modern manager's does not apply; an extra pod still fails.
func TestAScaleUpOnTodaysStackIsJudgedByItsExtraPodsNotItsGoroutines(t *testing.T) {
	sz := sizeN(100)
	if err := (scaleUpScript{}).Expect(scenario.StackTodayDefaults, sz, map[string]float64{"peak_goroutines": 950, "extra_pods": 0}); err != nil {
		t.Errorf("a scale-up without extra pods failed: %v", err)
	}
	if err := (scaleUpScript{}).Expect(scenario.StackTodayUnthrottled, sz, map[string]float64{"peak_goroutines": 950, "extra_pods": 2}); err == nil {
		t.Error("two extra pods passed")
	}
	if err := (scaleUpScript{}).Expect(scenario.Modern, sz, map[string]float64{"peak_goroutines": 950}); err == nil {
		t.Error("our modern manager's bound no longer holds")
	}
}
