package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// testSizes shrinks each scenario for make test: a 2 s sync period instead
// of 10 s, short windows, few pods. The outcomes asserted are the ones the
// full sizes show, judged by what the managers did and why, never by how
// soon. churn keeps a period long enough for pods to die between two
// ticks, and watch-window one long enough for the 2014 manager's watch to
// be cut before it resumes.
var testSizes = map[string]scenario.Size{
	"scale-up":           {Label: "test", Replicas: 1000, Period: 2 * time.Second},
	"scale-down":         {Label: "test", Replicas: 30, Period: 2 * time.Second},
	"partial-scale-down": {Label: "test", Replicas: 10, Period: 2 * time.Second},
	"idle":               {Label: "test", Controllers: 3, Replicas: 2, Period: 2 * time.Second, Window: 16 * time.Second},
	"churn":              {Label: "test", Replicas: 10, Rate: 1, Period: 4 * time.Second, Window: 8 * time.Second},
	"api-errors":         {Label: "test", Replicas: 50, Period: 2 * time.Second, Window: 10 * time.Second},
	"watch-drop":         {Label: "test", Replicas: 30, Period: 2 * time.Second},
	"two-managers":       {Label: "test", Replicas: 20, Period: 2 * time.Second, Window: 10 * time.Second},
	"restart":            {Label: "test", Replicas: 100, Period: 2 * time.Second},
	"crash":              {Label: "test", Replicas: 200, Period: 2 * time.Second, Crash: scripts.CrashAPIServer},
	"overlap":            {Label: "test", Replicas: 8, Period: 2 * time.Second, Window: 8 * time.Second},
	// recreate ends as soon as the new controller's pods run; its window
	// only bounds a run that never gets there (no collector), so it is
	// long enough for a busy machine's collector to finish.
	"recreate":     {Label: "test", Replicas: 5, Period: 2 * time.Second, Window: 30 * time.Second},
	"watch-window": {Label: "test", Replicas: 3, Period: 5 * time.Second},
}

// scenarioLimit bounds one run of a scenario, cluster and all: a bound
// for a run that hangs, far beyond what a loaded machine needs (a
// scale-up of 1 000 pods took more than 4 minutes at a load of 130), and
// never a verdict.
const scenarioLimit = 15 * time.Minute

// covered names the scenarios that diff_test.go runs under its own names.
var covered = map[string]bool{"two-managers": true, "scale-up": true, "idle": true, "api-errors": true}

// cpuBound names the scenarios whose figures a neighbouring cluster would
// disturb: each takes the heavy slot. The others mostly wait.
var cpuBound = map[string]bool{"scale-up": true, "scale-down": true, "restart": true, "watch-drop": true}

// heavySlot lets one test of this binary at a time drive a cluster hard
// (hundreds of pods at once, or figures a busy neighbour would blur); the
// tests that mostly wait run beside it. Every test of the package is
// parallel: most of an end-to-end test's time is waiting for a cluster to
// converge, and make test runs up to -parallel of them at once.
var heavySlot = make(chan struct{}, 1)

// testVariant is the variant this test binary's build runs. The modern one
// runs unthrottled here so that the tests stay short; the throttle is the
// benchmark's business.
func testVariant() scenario.Variant {
	if designtest.Design == "modern" {
		return scenario.ModernUnthrottled
	}
	return scenario.Legacy
}

// runScenario runs one scenario at its test size on real processes and
// checks the outcome this build's design must show.
func runScenario(t *testing.T, name string) {
	t.Helper()
	sz, ok := testSizes[name]
	if !ok {
		t.Fatalf("no test size for scenario %s", name)
	}
	runScenarioAt(t, name, sz)
}

// runScenarioAt is runScenario at size sz.
func runScenarioAt(t *testing.T, name string, sz scenario.Size) {
	t.Helper()
	sc, err := scripts.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	results := sharedRun(t, name, testVariant(), sz)
	for _, r := range results {
		t.Logf("%s %s = %.2f %s", designtest.Design, r.Name, r.Value, r.Unit)
	}
	if err := sc.Script.Expect(testVariant(), sz, scenario.ResultMap(results)); err != nil {
		t.Error(err)
	}
}

// runKey names one run of a scenario: the scenario, the variant, the size.
type runKey struct {
	scenario, variant string
	size              scenario.Size
}

// aRun is one run that several tests may ask for.
type aRun struct {
	once    sync.Once
	results []scenario.Result
	err     error
}

// runs holds the runs this test binary has made (runKey → *aRun).
var runs sync.Map

// sharedRun runs a scenario of variant v at size sz once for every test of
// the binary that asks for that run: the pairs of two changes of
// pkg/history whose effects one scenario shows ask for the same run with
// the change. What they check of it are counts the run shows or does not,
// and make test's length is the clusters it starts. The first test to ask
// runs it, on the heavy slot when the scenario is CPU-bound; the others
// wait for it and read the same results. A run that failed fails them
// all.
func sharedRun(t *testing.T, name string, v scenario.Variant, sz scenario.Size) []scenario.Result {
	t.Helper()
	r, _ := runs.LoadOrStore(runKey{name, v.Name, sz}, &aRun{})
	run := r.(*aRun)
	run.once.Do(func() {
		if cpuBound[name] {
			heavySlot <- struct{}{}
			defer func() { <-heavySlot }()
		}
		run.results, run.err = runOnce(t, name, v, sz)
	})
	if run.err != nil {
		t.Fatalf("%s of %s at %s: %v", name, v.Name, sz.Label, run.err)
	}
	return run.results
}

// runOnce runs a scenario on real processes and returns its results.
func runOnce(t *testing.T, name string, v scenario.Variant, sz scenario.Size) ([]scenario.Result, error) {
	sc, err := scripts.Get(name)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), scenarioLimit)
	defer cancel()
	out, err := scenario.Run(ctx, sc, v, sz, scenario.Options{
		BinDir: stacktest.BinDir(t),
		Dir:    t.TempDir(),
		Say:    t.Logf,
	})
	if err != nil {
		return nil, err
	}
	return out.Results, nil
}

// TestEveryOtherScenarioShowsTheOutcomeItsDesignMust runs the scenarios
// that diff_test.go does not, each at its test size.
func TestEveryOtherScenarioShowsTheOutcomeItsDesignMust(t *testing.T) {
	t.Parallel()
	for _, sc := range scripts.All() {
		if covered[sc.Name] {
			continue
		}
		name := sc.Name
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runScenario(t, name)
		})
	}
}

func TestEveryScenarioHasATestSize(t *testing.T) {
	t.Parallel()
	for _, sc := range scripts.All() {
		if _, ok := testSizes[sc.Name]; !ok {
			t.Errorf("scenario %s has no test size", sc.Name)
		}
	}
}
