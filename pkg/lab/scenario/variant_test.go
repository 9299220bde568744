package scenario

import (
	"slices"
	"strings"
	"testing"
)

// A control run is a variant of our port of today's design with changes of
// pkg/history switched off; anything else named so is refused with why.
func TestAControlRunSwitchesOffTheChangesItNames(t *testing.T) {
	v, err := VariantByName("modern-unthrottled-without-status-writes+qps")
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "modern-unthrottled-without-status-writes+qps" || v.Design != Modern.Design {
		t.Errorf("control run %+v, want modern-unthrottled's design under its own name", v)
	}
	if !slices.Contains(v.ManagerArgs, "-kube_api_qps=0") || !v.Without("status-writes") || !v.Without("qps") {
		t.Errorf("control run's manager flags %v, want modern-unthrottled's and -without=status-writes+qps", v.ManagerArgs)
	}
	if ModernUnthrottled.Without("status-writes") || len(ModernUnthrottled.ManagerArgs) != 1 {
		t.Errorf("the control run changed modern-unthrottled itself: %v", ModernUnthrottled.ManagerArgs)
	}
	for name, want := range map[string]string{
		"legacy-without-status-writes":   "only our port of today's design",
		"upstream-without-status-writes": "only our port of today's design",
		"modern-without-nothing":         "no change named",
		"nothing-without-status-writes":  "no variant named",
	} {
		if _, err := VariantByName(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, want)
		}
	}
}
