package sweep

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func TestAQuickSweepDrawsCostAgainstSizeAndNamesEachDesignsBreakingPoint(t *testing.T) {
	f := &benchtest.Runs{Fail: map[string]bool{"idle/legacy/0": true}}
	r, _ := benchtest.Runner(t, runner.Options{TodayDir: noToday(t), Quick: true}, f)
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	// Legacy's idle broke at 100 pods, so its idle of 1 000 is not run.
	if got := len(f.Calls); got != 3*2+2*2-1 {
		t.Errorf("%d runs, want scale-up at 3 sizes and idle at 2, for 2 designs, less legacy's idle after it broke: %v", got, f.Calls)
	}
	if !sum.Options.Sweep {
		t.Error("the summary does not say it is a sweep")
	}
	if info, err := os.Stat(filepath.Join(dir, "charts", "sweep.svg")); err != nil || info.Size() == 0 {
		t.Errorf("no sweep chart: %v", err)
	}
	// The report and the results page a sweep publishes both carry it.
	for _, page := range []string{"report.md", report.ResultsFile} {
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

func TestASweepStopsRunningADesignsLargerSizesOnceItsIdleApiserverNeedsMoreThanTheCores(t *testing.T) {
	f := &benchtest.Runs{IdleCPU: func(variant string, pods int) float64 {
		if variant == "legacy" && pods >= 1000 {
			return 500
		}
		return 5
	}}
	r, _ := benchtest.Runner(t, runner.Options{TodayDir: noToday(t)}, f)
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	legacyIdle := 0
	for key := range f.PerVariant {
		if strings.HasPrefix(key, "idle/") && strings.HasSuffix(key, "/legacy") {
			legacyIdle++
		}
	}
	if legacyIdle != 2 {
		t.Errorf("legacy's idle ran at %d sizes, want 100 and 1 000 only: %v", legacyIdle, f.Calls)
	}
	if got := len(f.PerVariant); got != 2*6+6+2 {
		t.Errorf("%d points run, want both scale-ups at 6 sizes, modern-unthrottled's idle at 6 and legacy's at 2: %v", got, f.PerVariant)
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
	if sum.Machine.FileLimit > 0 && !strings.Contains(string(md), "could hold "+results.FormatNumber(float64(sum.Machine.FileLimit))+" open files") {
		t.Errorf("the report does not give the open-file limit")
	}
	if !strings.Contains(string(md), "idle M=10,k=10000, legacy: not run: broke at 1000") {
		t.Errorf("the report does not name the runs left out:\n%s", md)
	}
}

func TestEverySweepRunHasALimitThatGrowsWithItsPods(t *testing.T) {
	p, err := BuildPlan(runner.Options{TodayDir: noToday(t), BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]runner.Item{}
	// After the headline (TestASweepRunsItsHeadlineFirstAndShowsItInItsPlace),
	// each scenario's sizes come smallest first.
	if it := p.Items[0]; it.Scenario.Name != "scale-up" || it.Pods() != 100000 {
		t.Errorf("the full sweep starts with %s %s, not its headline", it.Scenario.Name, it.Size.Label)
	}
	for _, it := range p.Items[1:] {
		if it.Limit <= 0 {
			t.Errorf("%s %s has no limit", it.Scenario.Name, it.Size.Label)
		}
		if prev, ok := last[it.Scenario.Name]; ok && !(it.Pods() > prev.Pods() && it.Limit > prev.Limit) {
			t.Errorf("%s %s: limit %v after %s's %v", it.Scenario.Name, it.Size.Label, it.Limit, prev.Size.Label, prev.Limit)
		}
		last[it.Scenario.Name] = it
	}
	if p.Items[0].Pods() != 100000 || last["idle"].Pods() != 100000 {
		t.Errorf("the full sweep does not reach 100 000 pods in both scenarios")
	}
	if p.Budget <= 0 {
		t.Error("the sweep has no budget")
	}
	expected, atMost := estimate(p)
	if expected <= 0 || expected > atMost || atMost > p.Budget {
		t.Errorf("estimate %v, at most %v, budget %v", expected, atMost, p.Budget)
	}
	quick, err := BuildPlan(runner.Options{TodayDir: noToday(t), Quick: true, BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := estimate(quick); q >= expected {
		t.Errorf("the quick sweep's estimate %v is not below the full one's %v", q, expected)
	}
}

func TestASweepPastItsBudgetNamesTheRunsItLeftOut(t *testing.T) {
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{TodayDir: noToday(t), Quick: true}, f)
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r.Now = func() time.Time { clock = clock.Add(time.Minute); return clock }
	_, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Calls) == 0 || len(f.Calls) >= 10 {
		t.Fatalf("%d runs within a budget that the clock passes midway", len(f.Calls))
	}
	if len(sum.Skipped) != 10-len(f.Calls) {
		t.Errorf("%d runs and %d left out, want 10 in all", len(f.Calls), len(sum.Skipped))
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
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{TodayDir: noToday(t), Quick: true, Etcd3: true}, f)
	dir, _, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"scale-up/N=1000,etcd3/legacy", "scale-up/N=1000,etcd3/modern-unthrottled",
		"idle/M=10,k=100,etcd3/legacy", "idle/M=10,k=100,etcd3/modern-unthrottled"} {
		if got := f.EtcdServers[key]; len(got) != 3 {
			t.Errorf("%s ran against %v, want three members", key, got)
		}
	}
	if got := f.EtcdServers["scale-up/N=1000/legacy"]; len(got) != 0 {
		t.Errorf("the embedded point ran against %v", got)
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	if !strings.Contains(string(md), "On an external etcd cluster") {
		t.Errorf("the report has no external etcd section")
	}

	// In a full sweep the point comes last, after both designs' 100 000
	// pods, which come first, and idle's: a budget cut takes it first.
	full, err := BuildPlan(runner.Options{TodayDir: noToday(t), Etcd3: true, BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, it := range full.Items {
		order = append(order, it.Scenario.Name+" "+it.Size.Label)
	}
	if got, want := strings.Join(order, "; "), "idle M=10,k=10000; idle M=10,k=300,etcd3; scale-up N=3000,etcd3"; !strings.HasSuffix(got, want) || !strings.HasPrefix(got, "scale-up N=100000;") {
		t.Errorf("full sweep order %s, want %s in it", got, want)
	}

	etcdBinary = func() (string, string) { return "", "no etcd binary" }
	p, err := BuildPlan(runner.Options{TodayDir: noToday(t), Quick: true, Etcd3: true, BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 5 || !strings.Contains(strings.Join(p.Notes, " "), "no etcd binary: no point was run on an external etcd cluster") {
		t.Errorf("without etcd: %d items, notes %q", len(p.Items), p.Notes)
	}
}

// One point of a sweep runs alone, with its own limit and no budget:
// large points are verified one at a time.
func TestSizesRunsOnePointOfASweepAlone(t *testing.T) {
	p, err := BuildPlan(runner.Options{SweepSizes: []int{100000}, Scenarios: []string{"scale-up"}, Variants: []string{"modern-unthrottled"}, BinDir: benchtest.BothDesigns(t)})
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
	idle, err := BuildPlan(runner.Options{TodayDir: noToday(t), SweepSizes: []int{100000}, Scenarios: []string{"idle"}, BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(idle.Items) != 1 || idle.Items[0].Pods() != 100000 || !idle.Items[0].Size.PodsFirst {
		t.Errorf("idle at 100 000: %+v", idle.Items)
	}
	for _, bad := range []runner.Options{
		{SweepSizes: []int{15}},
		{Scenarios: []string{"churn"}},
	} {
		bad.BinDir = benchtest.BothDesigns(t)
		if _, err := BuildPlan(bad); err == nil {
			t.Errorf("BuildPlan(%+v) accepted it", bad)
		}
	}
}

// A run that failed while the hollow nodes' watch kept falling out of
// etcd's window measured the laboratory: the sweep goes on to the larger
// sizes, names it, and the page says so.
func TestARunThatFailedWithTheLaboratorySaturatedIsNoBreak(t *testing.T) {
	f := &benchtest.Runs{Saturate: map[string]bool{"scale-up/N=100/modern-unthrottled": true}}
	r, _ := benchtest.Runner(t, runner.Options{TodayDir: noToday(t), Quick: true}, f)
	// The quick sweep's scale-up sizes are 100, 300 and 1 000: fail the
	// first, which must not stop the other two.
	dir, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.PerVariant["scale-up/N=1000/modern-unthrottled"]; n != 1 {
		t.Errorf("the 1 000-pod scale-up ran %d times after a saturated failure at 100, want once", n)
	}
	bp := report.BreakingPoint(sum, "modern-unthrottled")
	if !strings.Contains(bp, "scale-up with 100 pods: 1 of 1 runs failed with the laboratory saturated") || strings.Contains(bp, "breaking point scale-up") {
		t.Errorf("breaking point %q", bp)
	}
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0].Lab, "fell out of etcd's window of 1000 events 3 times") {
		t.Errorf("failures %+v", sum.Failures)
	}
	md, _ := os.ReadFile(filepath.Join(dir, report.ResultsFile))
	for _, want := range []string{"The laboratory's share", "saturated: the hollow nodes' pod watch fell out", "scale-up N=100 modern-unthrottled #1 (failed)", "kept up"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("%s lacks %q", report.ResultsFile, want)
		}
	}
}

// With make today's binaries, a sweep sets today's whole control plane,
// unthrottled, beside the two designs in every scale-up on our etcd, and
// leaves it out of idle, whose pods come before the manager, and of the
// points on an external etcd cluster of ours, saying so once.
func TestASweepRunsTodaysStackInItsScaleUps(t *testing.T) {
	todayDir := benchtest.BinDir(t, "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml")
	p, err := BuildPlan(runner.Options{Quick: true, Etcd3: true, BinDir: benchtest.BothDesigns(t), TodayDir: todayDir})
	if err != nil {
		t.Fatal(err)
	}
	ups := 0
	for i, it := range p.Items {
		var onToday bool
		for _, v := range it.Variants {
			onToday = onToday || v.Name == "stack-today-unthrottled"
		}
		want := it.Scenario.Name == "scale-up" && it.EtcdMembers == 0 && i > 0
		if onToday != want {
			t.Errorf("%s %s: stack-today-unthrottled runs: %v, want %v", it.Scenario.Name, it.Size.Label, onToday, want)
		}
		if want {
			ups++
		}
	}
	if ups == 0 {
		t.Error("no scale-up in the plan")
	}
	notes := strings.Join(p.Notes, "\n")
	if !strings.Contains(notes, "stack-today-unthrottled ran scale-up only") {
		t.Errorf("notes %q do not say today's stack ran scale-up only", notes)
	}
}

// noToday is a directory without make today's binaries, so that a sweep's
// default variants are the two designs on our stack wherever the test
// runs (make test points $KUBE_REWIND_TODAY at today's).
func noToday(t *testing.T) string { return t.TempDir() }

// The ablations run beside their parity variant at the smaller sizes
// only: at 10 000 pods the parity variants run and the ablation does
// not, and the notes say so.
func TestASweepRunsTheAblationsAtTheSmallerSizesOnly(t *testing.T) {
	todayDir := benchtest.BinDir(t, "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml")
	p, err := BuildPlan(runner.Options{SweepSizes: []int{scenario.AblationMaxReplicas, 10 * scenario.AblationMaxReplicas}, Scenarios: []string{"scale-up"},
		Variants: []string{"stack-today-parity", "stack-today-parity-with-meter"}, BinDir: benchtest.BothDesigns(t), TodayDir: todayDir})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 2 {
		t.Fatalf("%d items, want the two sizes", len(p.Items))
	}
	for _, it := range p.Items {
		var names []string
		for _, v := range it.Variants {
			names = append(names, v.Name)
		}
		want := "stack-today-parity,stack-today-parity-with-meter"
		if it.Size.Replicas > scenario.AblationMaxReplicas {
			want = "stack-today-parity"
		}
		if got := strings.Join(names, ","); got != want {
			t.Errorf("%s runs %s, want %s", it.Size.Label, got, want)
		}
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "stack-today-parity-with-meter ran at 1000 pods at most") {
		t.Errorf("notes %q do not say the ablation ran at the smaller size only", notes)
	}
}

// The sweep's headline, both designs scaling up at its largest size, runs
// first, before its budget can be spent on the smaller sizes; v0.4's own
// binaries and today's stack run that size last, and scale-up only. The
// summary still reads smallest first, the largest size one size with
// every variant in it.
func TestASweepRunsItsHeadlineFirstAndShowsItInItsPlace(t *testing.T) {
	todayDir := benchtest.BinDir(t, "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml")
	opts := runner.Options{Quick: true, TodayDir: todayDir, OriginalDir: benchtest.BinDir(t, original.Binaries...)}
	r, _ := benchtest.Runner(t, opts, &benchtest.Runs{})
	p, err := BuildPlan(r.Opts)
	if err != nil {
		t.Fatal(err)
	}
	names := func(it runner.Item) string {
		var ns []string
		for _, v := range it.Variants {
			ns = append(ns, v.Name)
		}
		return it.Scenario.Name + " " + it.Size.Label + ": " + strings.Join(ns, ",")
	}
	first, last := names(p.Items[0]), names(p.Items[len(p.Items)-1])
	if want := "scale-up N=1000: legacy,modern-unthrottled"; first != want {
		t.Errorf("the sweep starts with %q, want %q", first, want)
	}
	if want := "scale-up N=1000: stack-original-parity,stack-today-unthrottled"; last != want {
		t.Errorf("the sweep ends with %q, want %q", last, want)
	}
	for _, it := range p.Items {
		if it.Scenario.Name == "idle" && strings.Contains(names(it), "stack-") {
			t.Errorf("%s: a whole stack of its own in idle", names(it))
		}
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "stack-original-parity, stack-today-unthrottled ran scale-up only") {
		t.Errorf("notes %q do not say the whole stacks ran scale-up only", notes)
	}

	_, sum, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := sum.Scenario("scale-up")
	var got []string
	for _, sz := range sc.Sizes {
		got = append(got, fmt.Sprintf("%s:%d", sz.Label, len(sz.Variants)))
	}
	if want := "N=100:4 N=300:4 N=1000:4"; strings.Join(got, " ") != want {
		t.Errorf("scale-up's sizes in the summary: %s, want %s", strings.Join(got, " "), want)
	}
}
