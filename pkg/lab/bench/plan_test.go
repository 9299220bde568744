package bench

import (
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

func itemKeys(p *runner.Plan) []string {
	var out []string
	for _, it := range p.Items {
		var vs []string
		for _, v := range it.Variants {
			vs = append(vs, v.Name)
		}
		out = append(out, it.Scenario.Name+" "+it.Size.Label+" "+strings.Join(vs, ","))
	}
	return out
}

func TestTheDefaultPlanCalibratesFirstAndRunsTheHeadlineScenarios(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Calibrate || p.RunsEach != 3 || len(p.CalibrationClients) != 3 || p.WALPairs != results.WALPairs {
		t.Errorf("calibrate %v, runs %d, levels %v, %d pairs; want calibration at 3 levels with the reader's pairs, and 3 runs", p.Calibrate, p.RunsEach, p.CalibrationClients, p.WALPairs)
	}
	names := map[string]bool{}
	for _, it := range p.Items {
		names[it.Scenario.Name] = true
	}
	for _, want := range []string{"scale-up", "idle", "two-managers", "restart"} {
		if !names[want] {
			t.Errorf("the default plan lacks %s: %v", want, itemKeys(p))
		}
	}
	for _, demo := range []string{"partial-scale-down", "overlap", "watch-window"} {
		if names[demo] {
			t.Errorf("the default plan runs the demonstration %s", demo)
		}
	}
	if len(p.Notes) != 0 {
		t.Errorf("notes %v with every binary present", p.Notes)
	}
}

func TestQuickShrinksTheRunsTheLevelsAndTheSelection(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.RunsEach != 1 || len(p.CalibrationClients) != 1 || p.CalibrationSeconds != 1 || p.WALPairs != 0 {
		t.Errorf("runs %d, levels %v, %v s, %d pairs; want 1 run and a short calibration", p.RunsEach, p.CalibrationClients, p.CalibrationSeconds, p.WALPairs)
	}
	for _, it := range p.Items {
		if !planOf(it.Scenario).Quick {
			t.Errorf("quick plan runs %s", it.Scenario.Name)
		}
		if it.Scenario.Name == "scale-up" && it.Size.Replicas != 100 {
			t.Errorf("quick scale-up at %s, want N=100", it.Size.Label)
		}
	}
}

func TestNamedVariantsAndScenariosOverrideTheDefaults(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Scenarios: []string{"idle", "scale-up", "idle"}, Variants: []string{"modern-unthrottled", "legacy"}, Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(itemKeys(p), "; ")
	want := "idle M=10,k=10 modern-unthrottled,legacy; scale-up N=100 modern-unthrottled,legacy; scale-up N=1000 modern-unthrottled,legacy"
	if got != want || p.Calibrate || p.RunsEach != 2 {
		t.Errorf("plan = %q (calibrate %v, runs %d), want %q without calibration, 2 runs", got, p.Calibrate, p.RunsEach, want)
	}
}

func TestLargeAddsTenThousandReplicas(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Scenarios: []string{"scale-up"}, Large: true})
	if err != nil {
		t.Fatal(err)
	}
	last := p.Items[len(p.Items)-1]
	if last.Size.Replicas != 10000 {
		t.Errorf("largest size %s, want N=10000", last.Size.Label)
	}
}

func TestAMissingModernBinaryDropsItsVariantsWithANote(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BinDir(t, "apiserver", "hollow-node", "controller-manager")})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "controller-manager-modern was not found") {
		t.Errorf("notes = %q, want one naming controller-manager-modern", p.Notes)
	}
	for _, it := range p.Items {
		for _, v := range it.Variants {
			if v.Design != "legacy" {
				t.Errorf("%s still runs %s", it.Scenario.Name, v.Name)
			}
		}
	}
	if len(p.Items) == 0 {
		t.Error("nothing left to run, although the legacy design is there")
	}
}

// TestAMissingUpstreamBinaryIsSkippedSayingHowToBuildIt checks that the
// upstream variants, asked for by name, give way to one note naming the
// binary and make upstream, while the others run.
func TestAMissingUpstreamBinaryIsSkippedSayingHowToBuildIt(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Quick: true, Variants: []string{"legacy", "modern", "upstream", "upstream-unthrottled"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "controller-manager-upstream was not found") ||
		!strings.Contains(p.Notes[0], "upstream and upstream-unthrottled") || !strings.Contains(p.Notes[0], "make upstream builds it") {
		t.Errorf("notes = %q, want one naming controller-manager-upstream, both its variants and make upstream", p.Notes)
	}
	for _, it := range p.Items {
		if len(it.Variants) != 2 {
			t.Errorf("%s runs %d variants, want legacy and modern", it.Scenario.Name, len(it.Variants))
		}
	}
	p, err = BuildPlan(runner.Options{BinDir: benchtest.BinDir(t, "apiserver", "hollow-node", "controller-manager-upstream"), Quick: true, Variants: []string{"upstream"}})
	if err != nil || len(p.Notes) != 0 || len(p.Items) == 0 || p.Items[0].Variants[0].Binary() != "controller-manager-upstream" {
		t.Errorf("with its binary, upstream's plan is %v (notes %q, %v)", itemKeys(p), p.Notes, err)
	}
}

func TestBadNamesAreRefusedWithTheKnownOnes(t *testing.T) {
	for _, opts := range []runner.Options{
		{Scenarios: []string{"scale-sideways"}},
		{Variants: []string{"vintage"}},
		{Runs: -1},
	} {
		opts.BinDir = benchtest.BothDesigns(t)
		if _, err := BuildPlan(opts); err == nil {
			t.Errorf("BuildPlan(%+v) accepted it", opts)
		}
	}
	_, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Scenarios: []string{"scale-sideways"}})
	if err == nil || !strings.Contains(err.Error(), "scale-up") || !strings.Contains(err.Error(), runner.Calibrate) {
		t.Errorf("error %v does not list the known scenarios", err)
	}
}

func TestTheDefaultSelectionSaysWhereItTookLessThanTheStandard(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string]runner.Item{}
	for _, it := range p.Items {
		byKey[it.Scenario.Name+" "+it.Size.Label] = it
	}
	if it := byKey["idle M=10,k=10"]; it.Size.Window.Seconds() != 30 || it.Runs != 2 {
		t.Errorf("idle: window %v, %d runs; want the quick 30 s window and 2 runs", it.Size.Window, it.Runs)
	}
	if it := byKey["scale-up N=1000"]; len(it.Variants) != 2 || it.Variants[1].Name != "modern-unthrottled" {
		t.Errorf("scale-up N=1000 runs %v, want legacy and modern-unthrottled", it.Variants)
	}
	if it := byKey["scale-up N=100"]; len(it.Variants) != 3 || it.Runs != 3 {
		t.Errorf("scale-up N=100 runs %d × %v, want 3 runs of all three", it.Runs, it.Variants)
	}
	joined := strings.Join(p.Choices, "\n")
	for _, want := range []string{"idle: its quick size and 2 runs", "two-managers: 2 runs", "scale-up N=1000: no modern", "restart: its quick size"} {
		if !strings.Contains(joined, want) {
			t.Errorf("choices lack %q:\n%s", want, joined)
		}
	}

	full, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Scenarios: []string{"idle", "scale-up"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Choices) != 0 || full.Items[0].Size.Window.Minutes() != 2 || full.Items[0].Runs != 3 {
		t.Errorf("named scenarios should run in full: choices %v, idle window %v, %d runs", full.Choices, full.Items[0].Size.Window, full.Items[0].Runs)
	}
}

func TestAllRunsEveryScenarioInFull(t *testing.T) {
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), Scenarios: []string{All}})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, it := range p.Items {
		names[it.Scenario.Name] = true
	}
	if !p.Calibrate || len(names) != len(scripts.Names()) || len(p.Choices) != 0 {
		t.Errorf("all: calibrate %v, %d of %d scenarios, choices %v", p.Calibrate, len(names), len(scripts.Names()), p.Choices)
	}
}

// The flags that shape a sweep are refused without -sweep.
func TestSweepFlagsWithoutASweepAreRefused(t *testing.T) {
	if _, err := BuildPlan(runner.Options{Etcd3: true, BinDir: benchtest.BothDesigns(t)}); err == nil {
		t.Error("-etcd3 without -sweep was accepted")
	}
	bad := runner.Options{SweepSizes: []int{1000}, BinDir: benchtest.BothDesigns(t)}
	if _, err := BuildPlan(bad); err == nil {
		t.Errorf("BuildPlan(%+v) accepted it", bad)
	}
}

// TestTodaysStackRunsOnlyItsScenariosAndNeedsMakeToday: asked for
// stack-today, the plan runs it in scale-up and idle only, says for every
// other scenario why it did not run there, and where make today has not
// been run says so once, naming make today.
func TestTodaysStackRunsOnlyItsScenariosAndNeedsMakeToday(t *testing.T) {
	todayDir := benchtest.BinDir(t, "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml")
	p, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), TodayDir: todayDir, Scenarios: []string{"scale-up", "idle", "crash"}, Variants: []string{"legacy", "stack-today"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range p.Items {
		var names []string
		for _, v := range it.Variants {
			names = append(names, v.Name)
		}
		want := "legacy stack-today"
		if it.Scenario.Name == "crash" {
			want = "legacy"
		}
		if got := strings.Join(names, " "); got != want {
			t.Errorf("%s %s runs %s, want %s", it.Scenario.Name, it.Size.Label, got, want)
		}
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "crash was not run on stack-today") {
		t.Errorf("notes = %q, want one saying crash was not run on stack-today", p.Notes)
	}

	p, err = BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), TodayDir: t.TempDir(), Scenarios: []string{"scale-up", "idle"}, Variants: []string{"legacy", "stack-today"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "stack-today did not run: make today builds it") {
		t.Errorf("notes = %q, want one saying make today builds what stack-today needs", p.Notes)
	}
	for _, it := range p.Items {
		for _, v := range it.Variants {
			if v.OnToday() {
				t.Errorf("%s runs %s without today's binaries", it.Scenario.Name, v.Name)
			}
		}
	}
}

// modern-today needs both today's binaries and our modern manager: without
// ours the plan leaves it out and names the binary.
func TestOurManagerOnTodaysStackNeedsBothBuilds(t *testing.T) {
	todayDir := benchtest.BinDir(t, "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml")
	opts := runner.Options{TodayDir: todayDir, Scenarios: []string{"scale-up"}, Variants: []string{"legacy", "modern-today"}}
	opts.BinDir = benchtest.BothDesigns(t)
	p, err := BuildPlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) == 0 || len(p.Items[0].Variants) != 2 || len(p.Notes) != 0 {
		t.Errorf("with both builds: items %+v, notes %q; want legacy and modern-today, no note", p.Items, p.Notes)
	}
	opts.BinDir = benchtest.BinDir(t, "apiserver", "hollow-node", "controller-manager")
	p, err = BuildPlan(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range p.Items {
		for _, v := range it.Variants {
			if v.Name == "modern-today" {
				t.Errorf("modern-today runs without controller-manager-modern")
			}
		}
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "controller-manager-modern") {
		t.Errorf("notes = %q, want one naming controller-manager-modern", p.Notes)
	}
}
