package scenario

import (
	"slices"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
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

// A control run of the laboratory's reader is the variant as it is, under
// its own name, read another way; only our stack's etcd can be.
func TestAControlRunOfTheLaboratorysReaderChangesOnlyTheReader(t *testing.T) {
	v, err := VariantByName("modern-unthrottled-reading-members")
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "modern-unthrottled-reading-members" || v.LabReader != stack.LabMembers || v.Design != Modern.Design ||
		!slices.Equal(v.ManagerArgs, ModernUnthrottled.ManagerArgs) {
		t.Errorf("control run %+v, want modern-unthrottled reading the members", v)
	}
	if ModernUnthrottled.LabReader != "" {
		t.Errorf("the control run changed modern-unthrottled itself: %+v", ModernUnthrottled)
	}
	for name, want := range map[string]string{
		"stack-today-reading-members":                "only a variant on our stack's etcd",
		"stack-original-reading-members":             "only a variant on our stack's etcd",
		"legacy-reading-members-reading-learner":     "the laboratory reads pods by",
		"legacy-reading-everything":                  "the laboratory reads pods by",
		"nothing-reading-members":                    "no variant named",
		"modern-without-status-writes-reading-nodes": "the laboratory reads pods by",
	} {
		if _, err := VariantByName(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, want)
		}
	}
	if v, err := VariantByName("modern-without-status-writes-reading-learner-nice"); err != nil || v.LabReader != stack.LabLearnerNice || !v.Without("status-writes") {
		t.Errorf("a control run of both kinds: %+v, %v", v, err)
	}
}
