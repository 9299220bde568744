package scenario

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// TestTodaysVariantsRunKubeControllerManagerAtItsLimitsOrAboveThem:
// stack-today passes kube-controller-manager no client limit, so it runs
// at its defaults; stack-today-unthrottled raises both.
func TestTodaysVariantsRunKubeControllerManagerAtItsLimitsOrAboveThem(t *testing.T) {
	for _, name := range []string{"stack-today", "stack-today-unthrottled"} {
		v, err := VariantByName(name)
		if err != nil {
			t.Fatal(err)
		}
		if !v.OnToday() || v.Binary() != "kube-controller-manager" || v.Build != "make today" {
			t.Errorf("%s: on today %v, binary %s, built by %q", name, v.OnToday(), v.Binary(), v.Build)
		}
	}
	if args := StackTodayDefaults.ManagerArgs; len(args) != 0 {
		t.Errorf("stack-today overrides kube-controller-manager's defaults: %q", args)
	}
	for _, flag := range []string{"--kube-api-qps=", "--kube-api-burst="} {
		if !slices.ContainsFunc(StackTodayUnthrottled.ManagerArgs, func(a string) bool { return strings.HasPrefix(a, flag) }) {
			t.Errorf("stack-today-unthrottled does not raise %s: %q", flag, StackTodayUnthrottled.ManagerArgs)
		}
	}
	for _, v := range []Variant{Legacy, Modern, Upstream, StackOriginal} {
		if v.OnToday() {
			t.Errorf("%s claims to run on today's stack", v.Name)
		}
	}
}

// TestOnTodaysStackTheHollowNodesFigureGivesWayToKWOKsAndTheSchedulers:
// a figure of the hollow nodes is left out there, not reported as zero,
// and KWOK's and the scheduler's CPU since the mark are given; on our
// stack the figures stay as they are.
func TestOnTodaysStackTheHollowNodesFigureGivesWayToKWOKsAndTheSchedulers(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	for i, v := range []float64{1, 3, 6} {
		rec.Add(KWOKCPU, start.Add(time.Duration(i)*time.Second), v)
		rec.Add(SchedulerCPU, start.Add(time.Duration(i)*time.Second), v/2)
	}
	rs := []Result{{Name: "time_to_running"}, {Name: "hollow_node_cpu", Process: sampler.ProcessHollowNode}}
	e := &Env{Variant: StackTodayDefaults, Sampler: &sampler.Sampler{Rec: rec}}
	got := ResultMap(e.ForToday(rs, 1))
	if _, ok := got["hollow_node_cpu"]; ok {
		t.Error("hollow_node_cpu is reported on today's stack, which has no hollow nodes")
	}
	if _, ok := got["time_to_running"]; !ok || got["kwok_cpu"] != 3 || got["scheduler_cpu"] != 1.5 {
		t.Errorf("figures on today's stack: %v, want time_to_running, kwok_cpu 3 and scheduler_cpu 1.5 (from 3 and 1.5 at the mark to 6 and 3)", got)
	}
	e.Variant = Legacy
	if got := e.ForToday(rs, 1); len(got) != 2 {
		t.Errorf("our stack's figures changed: %v", got)
	}
}
