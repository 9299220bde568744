package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func TestAQuickSweepDrawsCostAgainstSizeAndNamesEachDesignsBreakingPoint(t *testing.T) {
	f := &fakeRuns{fail: map[string]bool{"idle/legacy/0": true}}
	r, _ := fakeRunner(t, Options{Sweep: true, Quick: true}, f)
	dir, sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Legacy's idle broke at 100 pods, so its idle of 1 000 is not run.
	if got := len(f.calls); got != 3*2+2*2-1 {
		t.Errorf("%d runs, want scale-up at 3 sizes and idle at 2, for 2 designs, less legacy's idle after it broke: %v", got, f.calls)
	}
	if !sum.Options.Sweep {
		t.Error("the summary does not say it is a sweep")
	}
	if info, err := os.Stat(filepath.Join(dir, "charts", "sweep.svg")); err != nil || info.Size() == 0 {
		t.Errorf("no sweep chart: %v", err)
	}
	// The report and the results page a sweep publishes both carry it.
	for _, page := range []string{"report.md", ResultsFile} {
		md, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"Sweep: cost against cluster size", "charts/sweep.svg",
			"legacy: breaking point idle with 100 pods: 1 of 1 runs failed",
			"modern-unthrottled: breaking point none within the sizes it ran (scale-up held up to 1000 pods, idle held up to 1000 pods)",
			"idle M=10,k=100, legacy: not run: broke at 100 (the run failed)"} {
			if !strings.Contains(string(md), want) {
				t.Errorf("%s lacks %q", page, want)
			}
		}
	}
}

func TestAnIdleApiserverThatNeedsMoreThanTheMachinesCoresIsABreakingPoint(t *testing.T) {
	idle := func(k int, cpu float64) SizeSummary {
		return SizeSummary{Label: "k", Controllers: 10, Replicas: k, Variants: []VariantSummary{
			{Variant: "legacy", Runs: 1, Figures: []Figure{fig("apiserver_cpu_per_min", cpu)}},
		}}
	}
	sum := &Summary{Machine: Machine{CPUs: 2}, Scenarios: []ScenarioSummary{{Name: "idle", Sizes: []SizeSummary{idle(10, 3), idle(100, 130), idle(1000, 200)}}}}
	got := breakingPoint(sum, "legacy")
	if want := "idle with 1000 pods: the idle apiserver needed 130 CPU s a minute, more than the 2 cores' 120"; got != want {
		t.Errorf("breaking point %q, want %q", got, want)
	}
	if got := breakingPoint(sum, "modern"); got != "none: no run of it finished" {
		t.Errorf("a design that was not run breaks at %q", got)
	}
}

// The apiserver cannot use more CPU than the machine has: a 2014 manager
// at 100 000 idle pods on 2 cores was measured with the apiserver at 105
// CPU s a minute and 17 of its 66 LISTs a minute served. Its ticks falling
// behind are what marks the break: each still sent its 1 + M LISTs, so
// idle's expectation holds, and the sweep judges the rate itself.
func TestAnIdleClusterWhoseManagersTicksFallBehindIsABreakingPoint(t *testing.T) {
	idle := func(k int, lists float64) SizeSummary {
		return SizeSummary{Label: "k", Controllers: 10, Replicas: k, PeriodSeconds: 10, Variants: []VariantSummary{
			{Variant: "legacy", Runs: 1, Figures: []Figure{fig("apiserver_cpu_per_min", 100), fig("lists_per_min", lists),
				fig("lists_during_idle", 33), fig("ticks_during_idle", 3)}},
		}}
	}
	sum := &Summary{Machine: Machine{CPUs: 2}, Scenarios: []ScenarioSummary{{Name: "idle", Sizes: []SizeSummary{idle(10, 66), idle(3000, 62), idle(10000, 17)}}}}
	got := breakingPoint(sum, "legacy")
	want := "idle with 100000 pods: its ticks fell behind: 17.0 LISTs a minute, where its 10s period asks for 66, with the apiserver at 100 CPU s a minute"
	if got != want {
		t.Errorf("breaking point %q, want %q", got, want)
	}
	rec := RunRecord{Scenario: "idle", Variant: "legacy", Size: scenario.Size{Controllers: 10, Replicas: 10000, Period: 10 * time.Second},
		Outcome: &scenario.Outcome{Results: []scenario.Result{{Name: "apiserver_cpu_per_min", Value: 100}, {Name: "lists_per_min", Value: 17},
			{Name: "lists_during_idle", Value: 33}, {Name: "ticks_during_idle", Value: 3}}}}
	if why := brokeBy(rec, 2); !strings.Contains(why, "17.0 LISTs a minute") {
		t.Errorf("a run whose ticks fell behind does not stop the sweep's larger sizes: %q", why)
	}
	rec.Outcome.Results[1].Value = 62
	if why := brokeBy(rec, 2); why != "" {
		t.Errorf("a run that kept most of its ticks broke: %q", why)
	}
}

func TestASweepStopsRunningADesignsLargerSizesOnceItsIdleApiserverNeedsMoreThanTheCores(t *testing.T) {
	f := &fakeRuns{idleCPU: func(variant string, pods int) float64 {
		if variant == "legacy" && pods >= 1000 {
			return 500
		}
		return 5
	}}
	r, _ := fakeRunner(t, Options{Sweep: true}, f)
	dir, sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	legacyIdle := 0
	for key := range f.perVariant {
		if strings.HasPrefix(key, "idle/") && strings.HasSuffix(key, "/legacy") {
			legacyIdle++
		}
	}
	if legacyIdle != 2 {
		t.Errorf("legacy's idle ran at %d sizes, want 100 and 1 000 only: %v", legacyIdle, f.calls)
	}
	if got := len(f.perVariant); got != 2*6+6+2 {
		t.Errorf("%d points run, want both scale-ups at 6 sizes, modern-unthrottled's idle at 6 and legacy's at 2: %v", got, f.perVariant)
	}
	var skipped []string
	for _, s := range sum.Skipped {
		skipped = append(skipped, s.Scenario+" "+s.Label+" "+s.Variant)
		if s.Variant != "legacy" || s.Scenario != "idle" || !strings.HasPrefix(s.Why, "broke at 1000 (the idle apiserver needed 500 CPU s a minute") {
			t.Errorf("skipped %+v", s)
		}
	}
	if len(skipped) != 4 {
		t.Errorf("skipped %v, want legacy's idle at 3 000, 10 000, 30 000 and 100 000", skipped)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if sum.Machine.FileLimit > 0 && !strings.Contains(string(md), "could hold "+formatNumber(float64(sum.Machine.FileLimit))+" open files") {
		t.Errorf("the report does not give the open-file limit")
	}
	if !strings.Contains(string(md), "idle M=10,k=10000, legacy: not run: broke at 1000") {
		t.Errorf("the report does not name the runs left out:\n%s", md)
	}
}

func TestEverySweepRunHasALimitThatGrowsWithItsPods(t *testing.T) {
	p, err := BuildPlan(Options{Sweep: true, BinDir: bothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]Item{}
	for _, it := range p.Items {
		if it.Limit <= 0 {
			t.Errorf("%s %s has no limit", it.Scenario.Name, it.Size.Label)
		}
		if prev, ok := last[it.Scenario.Name]; ok && !(itemPods(it) > itemPods(prev) && it.Limit > prev.Limit) {
			t.Errorf("%s %s: limit %v after %s's %v", it.Scenario.Name, it.Size.Label, it.Limit, prev.Size.Label, prev.Limit)
		}
		last[it.Scenario.Name] = it
	}
	if itemPods(last["scale-up"]) != 100000 || itemPods(last["idle"]) != 100000 {
		t.Errorf("the full sweep does not reach 100 000 pods in both scenarios")
	}
	if p.Budget <= 0 {
		t.Error("the sweep has no budget")
	}
	expected, atMost := p.Estimate()
	if expected <= 0 || expected > atMost || atMost > p.Budget {
		t.Errorf("estimate %v, at most %v, budget %v", expected, atMost, p.Budget)
	}
	quick, err := BuildPlan(Options{Sweep: true, Quick: true, BinDir: bothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := quick.Estimate(); q >= expected {
		t.Errorf("the quick sweep's estimate %v is not below the full one's %v", q, expected)
	}
}

func TestARunThatOutlivesItsLimitFailsAndTheSweepGoesOn(t *testing.T) {
	f := &fakeRuns{block: map[string]bool{"idle/legacy/0": true}}
	r, _ := fakeRunner(t, Options{Sweep: true, Quick: true, Variants: []string{"legacy"}}, f)
	p, err := BuildPlan(r.Opts)
	if err != nil {
		t.Fatal(err)
	}
	it := p.Items[0]
	rec := r.runOne(context.Background(), t.TempDir(), it, it.Variants[0], 0, 1, 1, 50*time.Millisecond)
	if !rec.TimedOut || rec.Outcome != nil || !strings.Contains(rec.Err, "not finished within its limit") {
		t.Errorf("a run past its limit: timed out %v, error %q", rec.TimedOut, rec.Err)
	}
}

func TestASweepPastItsBudgetNamesTheRunsItLeftOut(t *testing.T) {
	f := &fakeRuns{}
	r, _ := fakeRunner(t, Options{Sweep: true, Quick: true}, f)
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r.now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	_, sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.calls) == 0 || len(f.calls) >= 10 {
		t.Fatalf("%d runs within a budget that the clock passes midway", len(f.calls))
	}
	if len(sum.Skipped) != 10-len(f.calls) {
		t.Errorf("%d runs and %d left out, want 10 in all", len(f.calls), len(sum.Skipped))
	}
	for _, s := range sum.Skipped {
		if !strings.Contains(s.Why, "budget") {
			t.Errorf("left out for %q", s.Why)
		}
	}
}

func TestTheEtcd3PointRunsBothDesignsOnThreeExternalMembers(t *testing.T) {
	etcdBinary = func() (string, string) { return "/usr/bin/etcd", "" }
	defer func() { etcdBinary = etcdtest.Binary }()
	f := &fakeRuns{}
	r, _ := fakeRunner(t, Options{Sweep: true, Quick: true, Etcd3: true}, f)
	dir, _, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"scale-up/N=1000,etcd3/legacy", "scale-up/N=1000,etcd3/modern-unthrottled",
		"idle/M=10,k=100,etcd3/legacy", "idle/M=10,k=100,etcd3/modern-unthrottled"} {
		if got := f.etcdServers[key]; len(got) != 3 {
			t.Errorf("%s ran against %v, want three members", key, got)
		}
	}
	if got := f.etcdServers["scale-up/N=1000/legacy"]; len(got) != 0 {
		t.Errorf("the embedded point ran against %v", got)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "On an external etcd cluster") {
		t.Errorf("the report has no external etcd section")
	}

	// In a full sweep the point comes last, after both designs' 100 000
	// pods: a budget cut takes it first.
	full, err := BuildPlan(Options{Sweep: true, Etcd3: true, BinDir: bothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, it := range full.Items {
		order = append(order, it.Scenario.Name+" "+it.Size.Label)
	}
	if got, want := strings.Join(order, "; "), "scale-up N=100000; idle M=10,k=300,etcd3; scale-up N=3000,etcd3"; !strings.HasSuffix(got, want) {
		t.Errorf("full sweep order %s, want %s in it", got, want)
	}

	etcdBinary = func() (string, string) { return "", "no etcd binary" }
	p, err := BuildPlan(Options{Sweep: true, Quick: true, Etcd3: true, BinDir: bothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 5 || !strings.Contains(strings.Join(p.Notes, " "), "no etcd binary: no point was run on an external etcd cluster") {
		t.Errorf("without etcd: %d items, notes %q", len(p.Items), p.Notes)
	}
	if _, err := BuildPlan(Options{Etcd3: true, BinDir: bothDesigns(t)}); err == nil {
		t.Error("-etcd3 without -sweep was accepted")
	}
}

func TestAFailedRunNamesTheResourceItsLogsSayRanOut(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "controller-manager.log"), []byte("E1 creating pod: dial tcp 127.0.0.1:4001: socket: too many open files\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "apiserver.log"), []byte("I0 fine\n"), 0o644)
	got := exhaustion(dir)
	if !strings.Contains(got, "file descriptors ran out") || strings.Contains(got, "ports") {
		t.Errorf("exhaustion = %q", got)
	}
	if got := exhaustion(t.TempDir()); got != "" {
		t.Errorf("no logs: %q", got)
	}
	line := "E1 hollownode.go:141] pod watch ended: watch error: resourceVersion 17064 is too old to watch from: etcd keeps only its last 1000 events\n"
	os.WriteFile(filepath.Join(dir, "hollow-node.log"), []byte(line+"I1 relisted\n"+line), 0o644)
	if got := exhaustion(dir); !strings.Contains(got, "fell out of etcd's window of 1000 events 2 times") {
		t.Errorf("a run whose hollow nodes relisted twice: %q", got)
	}
}

// One point of a sweep runs alone, with its own limit and no budget:
// large points are verified one at a time.
func TestSizesRunsOnePointOfASweepAlone(t *testing.T) {
	p, err := BuildPlan(Options{Sweep: true, SweepSizes: []int{100000}, Scenarios: []string{"scale-up"}, Variants: []string{"modern-unthrottled"}, BinDir: bothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || p.Runs() != 1 {
		t.Fatalf("%d items, %d runs, want one point", len(p.Items), p.Runs())
	}
	it := p.Items[0]
	if it.Scenario.Name != "scale-up" || it.Size.Replicas != 100000 || it.Variants[0].Name != "modern-unthrottled" || it.Limit <= 0 {
		t.Errorf("the point is %s %s %s, limit %v", it.Scenario.Name, it.Size.Label, it.Variants[0].Name, it.Limit)
	}
	if p.Budget != 0 {
		t.Errorf("a point run alone has the sweep's budget %v", p.Budget)
	}
	idle, err := BuildPlan(Options{Sweep: true, SweepSizes: []int{100000}, Scenarios: []string{"idle"}, BinDir: bothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(idle.Items) != 1 || itemPods(idle.Items[0]) != 100000 || !idle.Items[0].Size.PodsFirst {
		t.Errorf("idle at 100 000: %+v", idle.Items)
	}
	for _, bad := range []Options{
		{SweepSizes: []int{1000}},
		{Sweep: true, SweepSizes: []int{15}},
		{Sweep: true, Scenarios: []string{"churn"}},
	} {
		bad.BinDir = bothDesigns(t)
		if _, err := BuildPlan(bad); err == nil {
			t.Errorf("BuildPlan(%+v) accepted it", bad)
		}
	}
}

// A run that failed while the hollow nodes' watch kept falling out of
// etcd's window measured the laboratory: the sweep goes on to the larger
// sizes, names it, and the page says so.
func TestARunThatFailedWithTheLaboratorySaturatedIsNoBreak(t *testing.T) {
	f := &fakeRuns{saturate: map[string]bool{"scale-up/N=100/modern-unthrottled": true}}
	r, _ := fakeRunner(t, Options{Sweep: true, Quick: true}, f)
	// The quick sweep's scale-up sizes are 100, 300 and 1 000: fail the
	// first, which must not stop the other two.
	dir, sum, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n := f.perVariant["scale-up/N=1000/modern-unthrottled"]; n != 1 {
		t.Errorf("the 1 000-pod scale-up ran %d times after a saturated failure at 100, want once", n)
	}
	bp := breakingPoint(sum, "modern-unthrottled")
	if !strings.Contains(bp, "scale-up with 100 pods: 1 of 1 runs failed with the laboratory saturated") || strings.Contains(bp, "breaking point scale-up") {
		t.Errorf("breaking point %q", bp)
	}
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0].Lab, "fell out of etcd's window of 1000 events 3 times") {
		t.Errorf("failures %+v", sum.Failures)
	}
	md, _ := os.ReadFile(filepath.Join(dir, ResultsFile))
	for _, want := range []string{"The laboratory's share", "saturated: the hollow nodes' pod watch fell out", "scale-up N=100 modern-unthrottled #1 (failed)", "kept up"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("%s lacks %q", ResultsFile, want)
		}
	}
}

func TestTheLaboratorysShareCountsBusyTimeAndNamesWhatSaturatedIt(t *testing.T) {
	start := time.Now()
	rec := sampler.NewRecorder(start)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	// hollow-node: a full core for 6 s of 10, idle the rest.
	for i, v := range []float64{0, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6} {
		rec.Add(sampler.HollowNodeCPU, at(float64(i)), v)
		rec.Add(sampler.SelfCPU, at(float64(i)), 0.1*float64(i))
	}
	rec.Add(sampler.HollowQueue, at(10), 42)
	rec.Add(sampler.HollowWatchLag, at(5), 700)
	l := labShare(&scenario.Outcome{Rec: rec})
	if l.HollowBusy != 0.6 || l.RcbenchBusy != 0 || l.HollowCPU != 6 || l.QueueEnd != 42 || l.WatchLag != 700 || l.Seconds != 10 {
		t.Errorf("share %+v", l)
	}
	if l.Saturated != "hollow-node used a full core for 60 % of the run" {
		t.Errorf("saturated %q", l.Saturated)
	}
	rec.Add(sampler.HollowNodeCPU, at(20), 6)
	if l := labShare(&scenario.Outcome{Rec: rec}); l.Saturated != "" {
		t.Errorf("a hollow node busy for 6 s of 20 is saturated: %q", l.Saturated)
	}
}
