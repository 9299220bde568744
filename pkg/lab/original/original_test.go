package original_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// SourceEnv names the Kubernetes git repository the tests of the original
// binaries build them from; without it they skip.
const SourceEnv = "KUBE_REWIND_V04_SRC"

var (
	buildOnce sync.Once
	builtDir  string
	buildErr  error
	tempRoot  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if tempRoot != "" {
		os.RemoveAll(tempRoot)
	}
	os.Exit(code)
}

// v04 returns a directory of the original binaries, built once per test
// binary from $KUBE_REWIND_V04_SRC into a temporary directory; without
// that source the test skips, saying how to run it.
func v04(t *testing.T) string {
	t.Helper()
	src := os.Getenv(SourceEnv)
	if src == "" {
		t.Skipf("skipping: the original v0.4 binaries' tests need %s=<a Kubernetes git repository holding commit %.7s>, e.g. a clone of %s",
			SourceEnv, original.Commit, original.Source)
	}
	buildOnce.Do(func() {
		if tempRoot, buildErr = os.MkdirTemp("", "kube-rewind-v04-"); buildErr != nil {
			return
		}
		builtDir = filepath.Join(tempRoot, "v0.4")
		_, buildErr = original.Build(original.BuildOptions{Src: src, Out: builtDir, Scratch: filepath.Join(tempRoot, "src")})
	})
	if buildErr != nil {
		t.Fatalf("building the original binaries from %s: %v", src, buildErr)
	}
	return builtDir
}

func TestBuildSaysWhatIsWrongWithTheSource(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src, want string
		// toClone says the error names the repository to clone.
		toClone bool
	}{
		{"", "no Kubernetes source given", true},
		{filepath.Join(t.TempDir(), "missing"), "no such file", false},
		{t.TempDir(), "is not a git repository", true},
		// This repository is one, without v0.4.
		{root, "does not hold commit 4452163", true},
	} {
		_, err := original.Build(original.BuildOptions{Src: tc.src, Out: t.TempDir(), Scratch: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Build from %q: %v, want an error saying %q", tc.src, err, tc.want)
			continue
		}
		if tc.toClone && !strings.Contains(err.Error(), original.Source) {
			t.Errorf("Build from %q: %v does not say where to get the source (%s)", tc.src, err, original.Source)
		}
	}
}

func TestAvailableSaysHowToBuild(t *testing.T) {
	err := original.Available(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "make original V04_SRC=") {
		t.Errorf("Available on an empty directory: %v, want the make original line", err)
	}
}

// TestTheOriginalVariantsConvergeAndReplaceADeletedPod scales a controller
// up on each original variant, deletes one of its pods and resizes it
// down, and checks exact counts each time, through the sampler as the
// benchmark reads them. On stack-original every count passes through the
// v0.4 apiserver, whose Running comes from the hollow nodes' /podInfo.
func TestTheOriginalVariantsConvergeAndReplaceADeletedPod(t *testing.T) {
	dir := v04(t)
	bin := stacktest.BinDir(t)
	sc := &scenario.Scenario{
		Name:    "originals",
		Cluster: stack.Config{Nodes: 3, ControllerManagers: 1},
	}
	for _, v := range []scenario.Variant{scenario.LegacyOriginal, scenario.StackOriginal} {
		t.Run(v.Name, func(t *testing.T) {
			t.Parallel()
			const n = 12
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			sz := scenario.Size{Replicas: n, Period: 10 * time.Second}
			logs := t.TempDir()
			e, err := scenario.Start(sc, v, sz, scenario.Options{BinDir: bin, Dir: logs, OriginalDir: dir, Say: t.Logf})
			if err != nil {
				stacktest.DumpLogs(t, logs)
				t.Fatal(err)
			}
			defer func() {
				e.Close()
				if t.Failed() {
					stacktest.DumpLogs(t, logs)
				}
			}()
			selector := map[string]string{"app": "web"}
			if err := e.CreateController(scenario.Controller("web", n, selector, nil)); err != nil {
				t.Fatal(err)
			}
			if err := e.WaitRunning(ctx, n, 2*time.Minute); err != nil {
				t.Fatal(err)
			}
			// The sampler of legacy-original reads the member's log, which
			// passes a write on once it is committed; the member applies it
			// to the store the apiserver lists on a goroutine of its own, so
			// the sampler can count a write the store does not hold yet. The
			// apiserver is polled until it agrees; a write the sampler saw
			// that the store never took fails here, naming the pods.
			var list *api.PodList
			if err := scenario.WaitFor(ctx, time.Minute, fmt.Sprintf("the apiserver listing exactly %d pods, all Running", n), func() (bool, string) {
				l, err := e.Client.ListPods(api.NewDefaultContext(), labels.SelectorFromSet(selector))
				if err != nil {
					return false, err.Error()
				}
				list = l
				if len(l.Items) != n {
					return false, fmt.Sprintf("%d pods listed", len(l.Items))
				}
				var waiting []string
				for _, p := range l.Items {
					if p.CurrentState.Status != api.PodRunning {
						waiting = append(waiting, fmt.Sprintf("%s reads %q", p.ID, p.CurrentState.Status))
					}
				}
				return len(waiting) == 0, strings.Join(waiting, ", ")
			}); err != nil {
				t.Fatal(err)
			}
			victim := list.Items[0].ID
			if err := e.Client.DeletePod(api.NewDefaultContext(), victim); err != nil {
				t.Fatal(err)
			}
			// The v0.4 manager replaces it at its next 10 s sync.
			if err := scenario.WaitFor(ctx, 2*time.Minute, "the deleted pod replaced", func() (bool, string) {
				c := e.Sampler.Pods.Counts()
				return c.Deleted >= 1 && c.Created == n+1 && c.Active == n && c.Running == n,
					fmt.Sprintf("%d created, %d deleted, %d active, %d running", c.Created, c.Deleted, c.Active, c.Running)
			}); err != nil {
				t.Fatal(err)
			}
			if err := e.Resize(ctx, "web", 3); err != nil {
				t.Fatal(err)
			}
			if err := e.WaitRunning(ctx, 3, 2*time.Minute); err != nil {
				t.Fatal(err)
			}
			e.StopSampling()
			if posts := e.Sampler.Rec.Last(sampler.ManagerPodPosts); posts != n+1 {
				t.Errorf("the original manager's pod creates counted %v, want %d", posts, n+1)
			}
			if g := e.Sampler.Rec.Max(sampler.ManagerGoroutines); g <= 0 {
				t.Errorf("the original manager's goroutines read %v, want its /metrics page read", g)
			}
		})
	}
}

// TestTheKubecfgsDriveEachOthersApiservers runs the original kubecfg
// against our apiserver and ours against the original apiserver: run,
// list, resize, stop and rm, each answered and obeyed.
func TestTheKubecfgsDriveEachOthersApiservers(t *testing.T) {
	dir := v04(t)
	bin := stacktest.BinDir(t)
	for _, tc := range []struct {
		name, original, kubecfg string
	}{
		{"the original kubecfg on our apiserver", "", filepath.Join(dir, "kubecfg")},
		{"our kubecfg on the original apiserver", stack.OriginalStack, filepath.Join(bin, "kubecfg")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := stacktest.Start(t, stack.Config{Design: "legacy", Original: tc.original, OriginalDir: dir, Nodes: 2, ControllerManagers: 1})
			kubecfg := func(args ...string) string {
				t.Helper()
				out, err := exec.Command(tc.kubecfg, append([]string{"-h", st.APIURL}, args...)...).CombinedOutput()
				if err != nil {
					t.Fatalf("kubecfg %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			running := func(want int) {
				t.Helper()
				watchtest.Within(t, 2*time.Minute, fmt.Sprintf("%d pods Running in kubecfg list pods", want), func() (bool, error) {
					out := kubecfg("-l", "simpleService=web", "list", "pods")
					got := strings.Count(out, "Running")
					return got == want && strings.Count(out, "simpleService=web") == want, fmt.Errorf("%d Running:\n%s", got, out)
				})
			}
			kubecfg("run", "nginx", "3", "web")
			running(3)
			if out := kubecfg("list", "replicationControllers"); !strings.Contains(out, "web") {
				t.Errorf("kubecfg list replicationControllers does not show web:\n%s", out)
			}
			kubecfg("resize", "web", "1")
			running(1)
			kubecfg("stop", "web")
			running(0)
			kubecfg("rm", "web")
			if out := kubecfg("list", "replicationControllers"); strings.Contains(out, "web") {
				t.Errorf("web is still listed after kubecfg rm:\n%s", out)
			}
		})
	}
}

// TestTheV04APIServerServesItsProfilesAndRunsWithoutTheMeter: built with
// make original's edits, v0.4's apiserver serves Go's profiles on
// -profiling_address, as ours does; with NoMeter, as at parity, its
// clients reach it directly and nothing counts its requests.
func TestTheV04APIServerServesItsProfilesAndRunsWithoutTheMeter(t *testing.T) {
	dir := v04(t)
	if !original.HasEdit(dir, original.ProfilesFix) {
		t.Fatalf("%s lists no %q edit", filepath.Join(dir, original.BuildInfoFile), original.ProfilesFix)
	}
	logs := t.TempDir()
	cfg := stack.Config{BinDir: stacktest.BinDir(t), Dir: logs, Nodes: 2, Original: stack.OriginalStack, OriginalDir: dir, NoMeter: true}
	st, port, err := stack.StartWithPort(cfg, func(port int) []string {
		return []string{fmt.Sprintf("%s127.0.0.1:%d", stack.ProfilingFlag, port)}
	})
	if err != nil {
		stacktest.DumpLogs(t, logs)
		t.Fatal(err)
	}
	defer st.Stop()
	if st.Metered() || st.CountsRequests() || st.OwnMetrics() {
		t.Errorf("without the meter: metered %t, counts requests %t, metrics of its own %t", st.Metered(), st.CountsRequests(), st.OwnMetrics())
	}
	// The meter would answer /metrics with its counts; v0.4 has none.
	if resp, err := http.Get(st.APIURL + "/metrics"); err == nil {
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(body), "apiserver_request_total") {
			t.Errorf("clients reach %s, which counts requests: a meter, not v0.4's apiserver", st.APIURL)
		}
	}
	resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/debug/pprof/cmdline", port))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), stack.ProfilingFlag) {
		t.Errorf("the profiles' page answered %d %q, want the apiserver's command line", resp.StatusCode, body)
	}
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListPods(api.NewDefaultContext(), labels.Everything()); err != nil {
		t.Errorf("the API, unmetered: %v", err)
	}
}

// TestV04sParityRunGetsTheWorkEveryParityRunGets reads, from the
// processes of a stack-original-parity run, what they got: the nodes, the
// hollow nodes' status writers and start delay, the apiserver's limits,
// the meter and the laboratory's reader are those parity.go gives every
// parity run, which pkg/lab/bench's parity test reads from our port's and
// today's stacks.
func TestV04sParityRunGetsTheWorkEveryParityRunGets(t *testing.T) {
	dir := v04(t)
	sc, err := scripts.Get("scale-up")
	if err != nil {
		t.Fatal(err)
	}
	sz := scenario.Size{Label: "N=1500", Replicas: 1500, Period: 10 * time.Second}
	logs := t.TempDir()
	e, err := scenario.Start(sc, scenario.StackOriginalParity, sz, scenario.Options{BinDir: stacktest.BinDir(t), Dir: logs, OriginalDir: dir})
	if err != nil {
		stacktest.DumpLogs(t, logs)
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := e.Parity(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s got %+v", scenario.StackOriginalParity.Name, got)
	want := scenario.ParityGot{Nodes: 15, StatusWriters: scenario.ParityStatusWriters, StartDelay: scenario.ParityStartDelay, Limits: "none", Reader: stack.LabWAL}
	if d := got.Differs(want); len(d) > 0 {
		t.Errorf("v0.4's side at parity is not what parity.go says: %s", strings.Join(d, "; "))
	}
}
