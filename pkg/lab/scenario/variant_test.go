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

// Each variant is described once, in Variants: a unique name, a launcher,
// a comparison, a colour a chart can read, and the words a page and the
// flags' help give it.
func TestEveryVariantIsDescribedOnce(t *testing.T) {
	seen := map[string]bool{}
	help := Help()
	for _, v := range Variants {
		if seen[v.Name] {
			t.Errorf("%s is listed twice", v.Name)
		}
		seen[v.Name] = true
		if got, err := VariantByName(v.Name); err != nil || got.Name != v.Name {
			t.Errorf("VariantByName(%q) = %q, %v", v.Name, got.Name, err)
		}
		if c := v.Color; c != "" && (len(c) != 7 || c[0] != '#' || strings.Trim(c[1:], "0123456789abcdefABCDEF") != "") {
			t.Errorf("%s: colour %q is not #rrggbb", v.Name, c)
		}
		if c := v.InComparison(); c != DesignAlone && c != StackAgainstStack {
			t.Errorf("%s: comparison %q", v.Name, c)
		}
		if v.OnToday() != (v.InComparison() == StackAgainstStack) {
			t.Errorf("%s: on today's control plane %v, but in the comparison %q", v.Name, v.OnToday(), v.InComparison())
		}
		if heading, sub, short := v.Describe(); heading == "" || short == "" || (sub == "" && v.Heading == "") {
			t.Errorf("%s: described as %q / %q / %q: a page would have nothing to say of it", v.Name, heading, sub, short)
		}
		if !strings.Contains(help, v.Name+" (") {
			t.Errorf("the flags' help leaves out %s", v.Name)
		}
	}
}

// A variant's launcher decides where it runs and what the laboratory may
// do there: only one of today's stacks has a meter to leave out, and only
// our etcd a reader to choose.
func TestTheLauncherDecidesWhatAControlRunMayChange(t *testing.T) {
	for _, v := range Variants {
		_, errMeter := VariantByName(v.Name + "-unmetered")
		// A variant that runs without the meter already has none.
		if (errMeter == nil) != (v.Runs(TodayStack) && !v.Unmetered) {
			t.Errorf("%s-unmetered: %v; the variant runs on %s", v.Name, errMeter, v.launcher().Name)
		}
		_, errReader := VariantByName(v.Name + "-reading-members")
		// A variant that names its reader has chosen already.
		if want := v.launcher().ReadsEtcd && v.Original != stack.OriginalStack && v.LabReader == ""; (errReader == nil) != want {
			t.Errorf("%s-reading-members: %v; the variant runs on %s", v.Name, errReader, v.launcher().Name)
		}
	}
	if (Variant{Name: "plain"}).launcher() != OurStack {
		t.Error("a variant that names no launcher does not run on our stack")
	}
}

// A control run prices the laboratory or a change; it stands for neither
// side when the whole stacks are set against each other.
func TestAControlRunStandsForNoWholeStack(t *testing.T) {
	for _, name := range []string{"stack-today-unmetered", "legacy-reading-members", "stack-original-without-x"} {
		v, err := VariantByName(name)
		if err != nil {
			continue
		}
		if v.WholeStack != "" {
			t.Errorf("%s stands for the %s side of stack against stack, as its base does", name, v.WholeStack)
		}
	}
	for _, name := range []string{"stack-today-unmetered", "legacy-reading-members"} {
		if _, err := VariantByName(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
