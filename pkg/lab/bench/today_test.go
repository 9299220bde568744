package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// requireToday, when set, makes missing binaries of make today a failure
// instead of a skip, as in pkg/lab/stack/today's tests.
const requireToday = "KUBE_REWIND_REQUIRE_TODAY"

// TestAScaleUpOnTodaysStackIsCountedAsOursAre: the benchmark's runner runs
// scale-up at 20 pods on stack-today, and the run's figures are counted
// as on our stack: kube-controller-manager's pod creates, requests and
// status writes through the meter, the apiserver's CPU, KWOK's and the
// scheduler's CPU in place of the hollow nodes', and not one extra pod.
func TestAScaleUpOnTodaysStackIsCountedAsOursAre(t *testing.T) {
	got := scaleUpOnToday(t, scenario.StackTodayDefaults, func() string { return stacktest.BinDir(t) })
	if got["pod_creates"] != 20 || got["extra_pods"] != 0 {
		t.Errorf("kube-controller-manager sent %v pod creates, %v pods too many; want 20 and none", got["pod_creates"], got["extra_pods"])
	}
	if got["manager_requests"] < 20 || got["status_writes"] < 1 || got["apiserver_cpu"] <= 0 || got["peak_goroutines"] <= 0 {
		t.Errorf("the meter or the sampler did not count kube-controller-manager's run: %v", got)
	}
	if _, ok := got["hollow_node_cpu"]; ok {
		t.Errorf("hollow_node_cpu is reported on a stack without hollow nodes: %v", got)
	}
	if _, ok := got["kwok_cpu"]; !ok {
		t.Errorf("KWOK's CPU is not reported: %v", got)
	}
	// kube-apiserver's and etcd's own counters: at least a create and a
	// binding a pod, each an etcd entry, and the managers' pod watches.
	if got[scenario.FigureAPIWrites] < 40 || got[scenario.FigureEtcdEntries] < 40 || got[scenario.FigureWatchEvents] < 20 {
		t.Errorf("the stack's own counters: %v writes, %v etcd entries, %v watch events; want at least 40, 40 and 20 for 20 pods",
			got[scenario.FigureAPIWrites], got[scenario.FigureEtcdEntries], got[scenario.FigureWatchEvents])
	}
}

// TestOurModernManagerOnTodaysStackIsCountedAsUpstreamsIs: modern-today
// runs our port of today's design against kube-apiserver, beside a
// kube-controller-manager of the other controllers, and the run is counted
// as stack-today's: our manager's pod creates, requests and status writes
// through the meter, and not kube-controller-manager's.
func TestOurModernManagerOnTodaysStackIsCountedAsUpstreamsIs(t *testing.T) {
	got := scaleUpOnToday(t, scenario.ModernToday, func() string { return stacktest.BinDir(t) })
	if got["pod_creates"] != 20 || got["extra_pods"] != 0 {
		t.Errorf("our manager sent %v pod creates, %v pods too many; want 20 and none", got["pod_creates"], got["extra_pods"])
	}
	if got["manager_requests"] < 20 || got["status_writes"] < 1 || got["peak_goroutines"] <= 0 {
		t.Errorf("the meter or the sampler did not count our manager's run: %v", got)
	}
	// kube-controller-manager's endpointslice, service account, namespace
	// and node controllers are not the manager's: counted with them, the
	// manager would send far more than its 20 creates, a status write or
	// two and its lease renewals.
	if got["manager_requests"] > 200 {
		t.Errorf("the manager's requests (%v) include kube-controller-manager's: %v", got["manager_requests"], got)
	}
}

// scaleUpOnToday runs scale-up at 20 pods on v, a variant on today's
// stack, with our binaries from bin (asked for only once today's are
// found), and returns its figures, held to the scenario's expectations;
// it skips where make today has not been run, unless requireToday is set.
func scaleUpOnToday(t *testing.T, v scenario.Variant, bin func() string) map[string]float64 {
	t.Helper()
	todayBin := todayBinOrSkip(t, "starts today's whole control plane")
	sc, err := scripts.Get("scale-up")
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(runner.Options{BinDir: bin(), TodayDir: todayBin, Out: t.TempDir()}, io.Discard)
	p := &runner.Plan{RunsEach: 1, Items: []runner.Item{{
		Scenario: sc, Size: scenario.Size{Label: "N=20", Replicas: 20, Period: 10 * time.Second},
		Variants: []scenario.Variant{v}, Runs: 1,
	}}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	runs, _ := r.RunItems(ctx, dir, p, 2)
	if len(runs) != 1 || runs[0].Outcome == nil {
		logTails(t, dir)
		t.Fatalf("the run did not finish: %+v", runs)
	}
	got := scenario.ResultMap(runs[0].Outcome.Results)
	if err := sc.Script.Expect(v, p.Items[0].Size, got); err != nil {
		logTails(t, dir)
		t.Error(err)
	}
	return got
}

// todayBinOrSkip returns the folder of make today's binaries, or skips a
// test that starts today's stack (what) in -short or where they are not
// built, unless requireToday is set.
func todayBinOrSkip(t *testing.T, what string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(what)
	}
	dir := today.Dir()
	if missing := today.Missing(dir); missing != "" {
		if os.Getenv(requireToday) != "" {
			t.Fatalf("%s (%s is set)", missing, requireToday)
		}
		t.Skip(missing)
	}
	return dir
}

// logTails logs the end of every component's log of the runs under dir,
// for a run that failed where its directory is gone after the test (CI).
func logTails(t *testing.T, dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "*.log"))
	for _, log := range logs {
		data, err := os.ReadFile(log)
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		t.Logf("the end of %s:\n%s", filepath.Base(log), strings.Join(lines, "\n"))
	}
}

// TestWithoutTheMeterTodaysStackIsMeasuredButItsRequestsAreNot: the
// meter's control run (stack-today-unthrottled-unmetered) starts today's
// stack without the meter and still reads its processes: times, the
// apiserver's, KWOK's and the scheduler's CPU, the manager's peaks and not
// one extra pod, with no request figure, since nothing counts them.
func TestWithoutTheMeterTodaysStackIsMeasuredButItsRequestsAreNot(t *testing.T) {
	v, err := scenario.VariantByName("stack-today-unthrottled-unmetered")
	if err != nil {
		t.Fatal(err)
	}
	got := scaleUpOnToday(t, v, func() string { return stacktest.BinDir(t) })
	if got["extra_pods"] != 0 || got["time_to_running"] <= 0 {
		t.Errorf("without the meter the run made %v pods too many in %v s; want none, in some time", got["extra_pods"], got["time_to_running"])
	}
	if got["apiserver_cpu"] <= 0 || got["kwok_cpu"] <= 0 || got["peak_goroutines"] <= 0 {
		t.Errorf("without the meter the processes were not read: %v", got)
	}
	for _, name := range []string{"pod_creates", "manager_requests", "manager_lists", "status_writes", "manager_bytes", "requests_sync"} {
		if v, ok := got[name]; ok {
			t.Errorf("%s = %v is reported, though without the meter nothing counts it", name, v)
		}
	}
}
