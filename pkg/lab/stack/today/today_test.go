package today_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// requireToday, when set, makes missing binaries a failure instead of a
// skip: CI builds them with make today, and must not pass without them.
const requireToday = "KUBE_REWIND_REQUIRE_TODAY"

// deadline bounds every wait for convergence; generous, as the tests run
// beside the others of make test on two cores. Nothing here asserts how
// long convergence took.
const deadline = 3 * time.Minute

// The stack the tests share: two controller managers (one leading), the
// scheduler, KWOK and three nodes. Each test works in a namespace of its
// own, so that sharing it keeps them independent; the one that kills a
// manager runs before the others start (it is not parallel).
var (
	sharedOnce  sync.Once
	sharedStack *today.Stack
	sharedDir   string
	sharedErr   error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedStack != nil {
		sharedStack.Stop()
	}
	if sharedDir != "" && code == 0 {
		os.RemoveAll(sharedDir)
	}
	os.Exit(code)
}

// shared returns the shared stack and an admin clientset, starting the
// stack on first use; where the binaries are not built it skips the test
// with one line saying how to build them (fails, with requireToday set).
func shared(t *testing.T) (*today.Stack, kubernetes.Interface) {
	t.Helper()
	bin := today.Dir()
	if missing := today.Missing(bin); missing != "" {
		if os.Getenv(requireToday) != "" {
			t.Fatalf("%s (%s is set)", missing, requireToday)
		}
		t.Skip(missing)
	}
	sharedOnce.Do(func() {
		sharedDir, sharedErr = os.MkdirTemp("", "kube-rewind-today-")
		if sharedErr != nil {
			return
		}
		sharedStack, sharedErr = today.Start(today.Config{BinDir: bin, Dir: sharedDir, Nodes: 3, ControllerManagers: 2})
	})
	if sharedErr != nil {
		dumpLogs(t, sharedDir)
		t.Fatalf("starting today's stack: %v", sharedErr)
	}
	c, err := sharedStack.Clientset()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if t.Failed() {
			dumpLogs(t, sharedDir)
		}
	})
	return sharedStack, c
}

// TestScaleUpTo20PodsRunning: a controller of 20 gets 20 pods, each
// placed by the scheduler and Running by KWOK's stages, and not one more
// is ever created.
func TestScaleUpTo20PodsRunning(t *testing.T) {
	t.Parallel()
	st, c := shared(t)
	ns := namespace(t, st, c, "scale-up")
	created := watchCreations(t, c, ns)
	createRC(t, c, ns, "scale-up", 20)
	waitRunning(t, c, ns, "scale-up", 20, nil)
	createdExactly(t, created, 20)
	for _, p := range pods(t, c, ns, "scale-up") {
		if p.Spec.NodeName == "" || !strings.HasPrefix(p.Spec.NodeName, today.NodePrefix) || p.Status.PodIP == "" {
			t.Errorf("pod %s runs on node %q with IP %q, not on a KWOK node with an IP", p.Name, p.Spec.NodeName, p.Status.PodIP)
		}
	}
}

// TestAKilledPodIsReplaced: a pod deleted from under its controller is
// replaced, and the controller is back at its count, without the killed
// pod.
func TestAKilledPodIsReplaced(t *testing.T) {
	t.Parallel()
	st, c := shared(t)
	ns := namespace(t, st, c, "kill-a-pod")
	createRC(t, c, ns, "kill-a-pod", 3)
	running := waitRunning(t, c, ns, "kill-a-pod", 3, nil)
	victim := running[0]
	ctx := context.Background()
	if err := c.CoreV1().Pods(ns).Delete(ctx, victim, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitRunning(t, c, ns, "kill-a-pod", 3, func(names []string) bool {
		for _, n := range names {
			if n == victim {
				return false
			}
		}
		return true
	})
}

// TestADeletedControllersPodsAreCollected: deleting a controller the way
// kubectl does (propagation in the background) leaves its pods to the
// garbage collector, which deletes every one of them by their owner
// reference. (A v1 controller deleted without a propagation policy
// orphans its pods, as it always has.)
func TestADeletedControllersPodsAreCollected(t *testing.T) {
	t.Parallel()
	st, c := shared(t)
	ns := namespace(t, st, c, "recreate")
	createRC(t, c, ns, "recreate", 5)
	waitRunning(t, c, ns, "recreate", 5, nil)
	background := metav1.DeletePropagationBackground
	if err := c.CoreV1().ReplicationControllers(ns).Delete(context.Background(), "recreate", metav1.DeleteOptions{PropagationPolicy: &background}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the garbage collector to delete the controller's 5 pods", func() (bool, string) {
		left := pods(t, c, ns, "recreate")
		return len(left) == 0, fmt.Sprintf("%d pods left", len(left))
	})
}

// TestTwoManagersWithLeaderElectionHoldExactlyN: of two controller
// managers one leads and the other waits, so a controller of 10 gets 10
// pods, not 20 as two 2014 managers made; when the leader is killed the
// other takes its lease and scales the controller to 15, again exactly.
// Not parallel: it kills the shared stack's leader before the other tests
// start.
func TestTwoManagersWithLeaderElectionHoldExactlyN(t *testing.T) {
	st, c := shared(t)
	ns := namespace(t, st, c, "two-managers")
	created := watchCreations(t, c, ns)
	createRC(t, c, ns, "two-managers", 10)
	waitRunning(t, c, ns, "two-managers", 10, nil)
	leader := -1
	eventually(t, "exactly one of the two managers to report itself leader", func() (bool, string) {
		leading, err := leaders(st)
		if err != nil {
			return false, err.Error()
		}
		if len(leading) == 1 {
			leader = leading[0]
		}
		return len(leading) == 1, fmt.Sprintf("leaders: %v", leading)
	})
	createdExactly(t, created, 10)

	st.KillManager(leader, syscall.SIGKILL)
	scale(t, c, ns, "two-managers", 15)
	waitRunning(t, c, ns, "two-managers", 15, nil)
	if leading, err := leaders(st); err != nil || len(leading) != 1 || leading[0] == leader {
		t.Errorf("after killing manager %d the leaders are %v (%v)", leader, leading, err)
	}
	createdExactly(t, created, 15)
}

// TestASchedulerThatExitsByItselfIsStartedAgain: kube-scheduler, like
// kube-controller-manager, exits when it loses its leader election, and
// counts on its supervisor to start it again; the stack is that
// supervisor. Killed from outside the stack, as a lost lease ends it, the
// scheduler comes back as a new process, says so in its log, and pods of a
// new controller are scheduled and run. Not parallel: the others' pods
// would wait for the new scheduler's lease.
func TestASchedulerThatExitsByItselfIsStartedAgain(t *testing.T) {
	st, c := shared(t)
	old := process(st, today.Scheduler)
	if err := syscall.Kill(old.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a new kube-scheduler process", func() (bool, string) {
		p := process(st, today.Scheduler)
		if p == nil || p == old {
			return false, "the killed one"
		}
		exited, _ := p.Exited()
		return !exited, fmt.Sprintf("pid %d, exited %v", p.Pid(), exited)
	})
	log, err := os.ReadFile(filepath.Join(sharedDir, today.Scheduler+".log"))
	if err != nil || !strings.Contains(string(log), "exited by itself") {
		t.Errorf("the scheduler's log does not say it was started again (%v)", err)
	}
	ns := namespace(t, st, c, "rescheduled")
	createRC(t, c, ns, "rescheduled", 3)
	waitRunning(t, c, ns, "rescheduled", 3, nil)
}

// process returns the stack's running process of that name, or nil.
func process(st *today.Stack, name string) *stack.Process {
	for _, p := range st.Processes() {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// createdExactly waits until the watch has seen n pods created, then
// fails if it has seen more.
func createdExactly(t *testing.T, created func() int, n int) {
	t.Helper()
	eventually(t, fmt.Sprintf("the watch to see %d pods created", n), func() (bool, string) {
		return created() >= n, fmt.Sprintf("%d seen", created())
	})
	if got := created(); got != n {
		t.Errorf("%d pods were created where %d were asked for", got, n)
	}
}

// leaders returns the indexes of the running controller managers whose
// /metrics say they hold the lease (leader_election_master_status 1).
func leaders(st *today.Stack) ([]int, error) {
	client := st.HTTPClient()
	var out []int
	for i, url := range st.ManagerURLs {
		if exited, _ := st.Managers[i].Exited(); exited {
			continue
		}
		resp, err := client.Get(url + "/metrics")
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if strings.HasPrefix(line, "leader_election_master_status{") && strings.Contains(line, `name="kube-controller-manager"`) && strings.HasSuffix(line, " 1") {
				out = append(out, i)
			}
		}
		resp.Body.Close()
	}
	return out, nil
}

// namespace creates a namespace for one test and waits for its default
// service account.
func namespace(t *testing.T, st *today.Stack, c kubernetes.Interface, name string) string {
	t.Helper()
	ns := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := c.CoreV1().Namespaces().Create(context.Background(), ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := st.WaitForServiceAccount(name); err != nil {
		t.Fatal(err)
	}
	return name
}

func createRC(t *testing.T, c kubernetes.Interface, ns, name string, replicas int32) {
	t.Helper()
	labels := map[string]string{"app": name}
	rc := &v1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: labels,
			Template: &v1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}}},
			},
		},
	}
	if _, err := c.CoreV1().ReplicationControllers(ns).Create(context.Background(), rc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func scale(t *testing.T, c kubernetes.Interface, ns, name string, replicas int32) {
	t.Helper()
	s, err := c.CoreV1().ReplicationControllers(ns).GetScale(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Spec.Replicas = replicas
	if _, err := c.CoreV1().ReplicationControllers(ns).UpdateScale(context.Background(), name, s, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// pods returns the pods of app name that are not being deleted.
func pods(t *testing.T, c kubernetes.Interface, ns, name string) []v1.Pod {
	t.Helper()
	list, err := c.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: "app=" + name})
	if err != nil {
		t.Logf("listing pods: %v", err)
		return nil
	}
	var out []v1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

// waitRunning waits until app name has exactly n pods, all Running, and
// ok (when set) accepts their names, which it returns.
func waitRunning(t *testing.T, c kubernetes.Interface, ns, name string, n int, ok func([]string) bool) []string {
	t.Helper()
	var names []string
	eventually(t, fmt.Sprintf("%d running pods of %s", n, name), func() (bool, string) {
		names = nil
		running := 0
		list := pods(t, c, ns, name)
		for _, p := range list {
			names = append(names, p.Name)
			if p.Status.Phase == v1.PodRunning {
				running++
			}
		}
		return len(list) == n && running == n && (ok == nil || ok(names)), fmt.Sprintf("%d pods, %d running", len(list), running)
	})
	return names
}

// watchCreations counts the pods ever created in ns from now on, by
// their UIDs, from a watch that resumes where it left off; the count
// includes a pod created and deleted between two polls.
func watchCreations(t *testing.T, c kubernetes.Interface, ns string) func() int {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	list, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lw := &cache.ListWatch{WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
		return c.CoreV1().Pods(ns).Watch(ctx, opts)
	}}
	w, err := watchtools.NewRetryWatcherWithContext(ctx, list.ResourceVersion, lw)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	for _, p := range list.Items {
		seen[string(p.UID)] = true
	}
	go func() {
		for ev := range w.ResultChan() {
			if p, ok := ev.Object.(*v1.Pod); ok && ev.Type == watch.Added {
				mu.Lock()
				seen[string(p.UID)] = true
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(w.Stop)
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(seen)
	}
}

// eventually polls cond until it holds or deadline passes; cond says
// where it stands, for the failure message.
func eventually(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	stop := time.Now().Add(deadline)
	var last string
	for time.Now().Before(stop) {
		var ok bool
		if ok, last = cond(); ok {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("gave up waiting for %s after %v (last: %s)", what, deadline, last)
}

// dumpLogs attaches the tail of every component's log to the test output.
func dumpLogs(t *testing.T, dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		if len(data) > 6000 {
			data = data[len(data)-6000:]
		}
		t.Logf("---- tail of %s ----\n%s", filepath.Base(l), data)
	}
}
