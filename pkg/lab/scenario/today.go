package scenario

// Scenarios on today's whole control plane (pkg/lab/stack/today): the
// variants stack-today and stack-today-unthrottled.

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
)

// NotOnToday says why a scenario does not run on today's stack, or "" when
// it does (Scenario.Today).
func NotOnToday(sc *Scenario) string {
	if sc.Today {
		return ""
	}
	return "its steps need more of our stack than creating and resizing controllers (the apiserver's fault switch, " +
		"the hollow nodes' churn and failures, killing or starting our processes, or our 2014 client), " +
		"which today's stack does not offer the scenarios yet"
}

// runsOnToday says why sc at sz cannot run on today's control plane
// (where names it: today's stack or an external cluster), or nil.
func runsOnToday(sc *Scenario, sz Size, where string) error {
	if why := NotOnToday(sc); why != "" {
		return fmt.Errorf("%s does not run on %s: %s", sc.Name, where, why)
	}
	if sz.PodsFirst || sz.EtcdMembers > 0 {
		return fmt.Errorf("%s %s does not run on %s: it has no pods-first start and no etcd cluster of ours", sc.Name, sz.Label, where)
	}
	return nil
}

// Processes of today's stack whose CPU the sampler records besides the
// apiserver's and the managers': the laboratory's share there (KWOK and
// the scheduler), and, beside our managers, the kube-controller-manager
// of the other controllers.
const (
	KWOKCPU      = "kwok.cpu_seconds"
	SchedulerCPU = "scheduler.cpu_seconds"
	OthersCPU    = "kube_controller_manager_others.cpu_seconds"
)

// startToday starts today's stack for sc at size sz, with v's
// kube-controller-manager flags and the meter in front of the apiserver,
// and starts sampling it.
func startToday(sc *Scenario, v Variant, sz Size, opts Options) (*Env, error) {
	if err := runsOnToday(sc, sz, "today's stack"); err != nil {
		return nil, err
	}
	bin := opts.TodayDir
	if bin == "" {
		bin = today.Dir()
	}
	// As many nodes as our stack's hollow nodes, and more where the
	// pods would not fit at a kubelet's 110 each: the parity's count,
	// which a parity run gives our stack too.
	nodes := ParityNodes(sc, sz)
	var apiserverArgs []string
	podWriters := 0
	if v.Parity {
		// The fair fight's work (parity.go), but for the one thing an
		// ablation sets otherwise (ablation.go; the meter's is
		// Unmetered, set by its name).
		if !v.Ablated(AblateLimits) {
			apiserverArgs = parityAPIServerArgs
		}
		if !v.Ablated(AblateKWOKWriters) {
			podWriters = ParityStatusWriters
		}
		nodes = v.parityNodes(sc, sz)
	}
	ours := ""
	if v.Ours() {
		path, err := filepath.Abs(filepath.Join(opts.BinDir, v.Binary()))
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("%s runs our manager, %s, which is not built (%s): %v", v.Name, v.Binary(), v.Build, err)
		}
		ours = path
	}
	// The laboratory reads today's pods as it reads ours, from etcd's
	// log, in our hollow-node binary: by default, and with
	// -lab_reader=wal. Any other reader is read through a watch of
	// kube-apiserver (stack.LabAPIWatch): today's etcd has no learner.
	walReader := ""
	if opts.LabReader == "" || opts.LabReader == stack.LabWAL {
		path, err := filepath.Abs(filepath.Join(opts.BinDir, "hollow-node"))
		if err != nil {
			return nil, err
		}
		walReader = path
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("the laboratory's reader of the write-ahead log is our hollow-node binary, which is not built (make build): %v", err)
		}
	}
	st, err := today.Start(today.Config{
		BinDir:                bin,
		Dir:                   opts.Dir,
		Nodes:                 nodes,
		ControllerManagers:    sc.Cluster.ControllerManagers,
		ControllerManagerArgs: v.ManagerArgs,
		SchedulerArgs:         v.SchedulerArgs,
		OurManager:            ours,
		Meter:                 !v.Unmetered,
		APIServerArgs:         apiserverArgs,
		PodWriters:            podWriters,
		DirectBinding:         v.Ablated(AblateDirectBinder),
		WALReader:             walReader,
	})
	if err != nil {
		return nil, err
	}
	say := opts.say()
	steps, err := clientsetAs(st, "scenario")
	if err != nil {
		st.Stop()
		return nil, err
	}
	lab, err := clientsetAs(st, "kube-rewind-laboratory")
	if err != nil {
		st.Stop()
		return nil, err
	}
	iv := opts.intervals(sc)
	tc := todayCluster{st: st, c: steps, lab: lab, ns: metav1.NamespaceDefault, stopLab: func() {}}
	if v.Ablated(AblateLabWatch) {
		tc.stopLab = labWatch(lab, tc.ns)
	}
	e := &Env{Variant: v, Size: sz, Cluster: tc, Say: say, marks: map[string]time.Time{}}
	e.Sampler = sampler.NewOf(nil, tc, labels.Everything(), iv)
	if err := e.Sampler.Start(); err != nil {
		st.Stop()
		return nil, err
	}
	if opts.Profile {
		// kube-apiserver's CPU profile, from the server itself (not the
		// meter), as the stack's admin: the report names where its CPU
		// went by package, as it does for ours.
		// The stack's client trusts its authority, but gives up after a
		// few seconds, before a profile's chunk is taken.
		client := &http.Client{Transport: st.HTTPClient().Transport}
		targets := map[string]profileTarget{sampler.ProcessAPIServer: {base: st.DirectURL, client: client, token: st.Token("admin")}}
		if e.profiler, err = startProfilerOf(filepath.Join(opts.Dir, "profiles"), e.Sampler.Rec.Start(), targets); err != nil {
			e.Close()
			return nil, err
		}
	}
	e.Mark("start")
	return e, nil
}

// clientsetAs returns a clientset of the stack's admin that names itself
// agent in its User-Agent, as the meter counts clients. It speaks
// protobuf, as today's components do: the laboratory's pod watch decodes
// every pod event of a scale-up, and JSON would make that its largest
// cost, and the apiserver's encoding of it too.
func clientsetAs(st *today.Stack, agent string) (kubernetes.Interface, error) {
	cfg := st.RESTConfig()
	cfg.UserAgent = agent
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cfg.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	return kubernetes.NewForConfig(cfg)
}

// todayCluster is today's stack as the steps and the sampler see it.
type todayCluster struct {
	st *today.Stack
	// c acts for the steps; lab is the sampler's pod watch.
	c, lab kubernetes.Interface
	ns     string
	// stopLab stops what the laboratory runs beside the sampler (a pod
	// watch, AblateLabWatch).
	stopLab func()
}

func (t todayCluster) CreateController(ctx context.Context, rc *api.ReplicationController) error {
	_, err := t.c.CoreV1().ReplicationControllers(t.ns).Create(ctx, today.ControllerV1(rc, t.ns), metav1.CreateOptions{})
	return err
}

func (t todayCluster) Resize(ctx context.Context, id string, replicas int) error {
	name := strings.ToLower(id)
	return retryConflicts(ctx, func() (bool, error) {
		rc, err := t.c.CoreV1().ReplicationControllers(t.ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		n := int32(replicas)
		rc.Spec.Replicas = &n
		_, err = t.c.CoreV1().ReplicationControllers(t.ns).Update(ctx, rc, metav1.UpdateOptions{})
		return apierrors.IsConflict(err), err
	})
}

func (t todayCluster) Desired(ctx context.Context) (int, error) {
	list, err := t.c.CoreV1().ReplicationControllers(t.ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, rc := range list.Items {
		if rc.Spec.Replicas != nil {
			n += int(*rc.Spec.Replicas)
		}
	}
	return n, nil
}

func (t todayCluster) Stop() {
	t.stopLab()
	t.st.Stop()
}

// labWatch starts a watch of every pod in ns like the one the laboratory
// read today's stack with before it read etcd's log, whose events go
// nowhere: the lab-watch ablation, which prices that watch by putting it
// back. It returns what stops it.
func labWatch(c kubernetes.Interface, ns string) (stop func()) {
	factory := informers.NewSharedInformerFactoryWithOptions(c, 0, informers.WithNamespace(ns))
	factory.Core().V1().Pods().Informer()
	stopCh := make(chan struct{})
	factory.Start(stopCh)
	return func() {
		close(stopCh)
		factory.Shutdown()
	}
}

func (t todayCluster) Processes() []*stack.Process { return t.st.Processes() }

// The sampler's view (sampler.Cluster).

// Pods reads the pods from the reader of etcd's write-ahead log, where
// the stack runs one (as 2014's pods are read), or else through a watch
// of kube-apiserver.
func (t todayCluster) Pods() etcdpods.Pods {
	if t.st.ReaderURL != "" {
		return etcdpods.NewTailReader(t.st.ReaderURL)
	}
	return sampler.V1Pods(t.lab, t.ns)
}

func (t todayCluster) StatusOnRead() bool { return false }

// WALReaderURL is where the laboratory's reader of etcd's write-ahead log
// serves, or "" when it reads through kube-apiserver.
func (t todayCluster) WALReaderURL() string { return t.st.ReaderURL }

// WALReaderOf says whose log the laboratory's reader reads, "" without
// one.
func (t todayCluster) WALReaderOf() string {
	if t.st.ReaderURL == "" {
		return ""
	}
	return "the member kube-apiserver stores in"
}

func (t todayCluster) RequestsURL() string { return t.st.MetricsURL() }

func (t todayCluster) APIServer() (int, []int) {
	api, etcd := 0, []int(nil)
	for _, c := range t.st.Components() {
		switch c.Name {
		case today.APIServer:
			api = c.Pid()
		case today.Etcd:
			etcd = append(etcd, c.Pid())
		}
	}
	return api, etcd
}

func (t todayCluster) HollowNode() (int, string) { return 0, "" }

// kubeControllerManagerEvery is how often the sampler reads a
// kube-controller-manager, not every 25 ms as it reads our managers to
// catch their goroutine storms: its metrics are far larger than theirs,
// and every read costs it CPU. Its goroutines are its whole process's, which
// no bound of ours holds (scale-up's Expect), and its CPU is cumulative,
// so the rarer reads lose nothing the laboratory asserts.
const kubeControllerManagerEvery = 250 * time.Millisecond

func (t todayCluster) Managers() []sampler.Endpoint {
	var out []sampler.Endpoint
	for _, c := range t.st.Components() {
		if c.Manager {
			ep := sampler.Endpoint{URL: c.URL, Pid: c.Pid()}
			if strings.HasPrefix(c.Name, today.ControllerManager) {
				ep.Every = kubeControllerManagerEvery
			}
			out = append(out, ep)
		}
	}
	return out
}

func (t todayCluster) Others() map[string]int {
	out := map[string]int{}
	for _, c := range t.st.Components() {
		switch c.Name {
		case today.KWOK:
			out[strings.TrimSuffix(KWOKCPU, "cpu_seconds")] = c.Pid()
		case today.Scheduler:
			out[strings.TrimSuffix(SchedulerCPU, "cpu_seconds")] = c.Pid()
		case today.OthersName:
			out[strings.TrimSuffix(OthersCPU, "cpu_seconds")] = c.Pid()
		case stack.ProcessLabReader:
			out[strings.TrimSuffix(sampler.LearnerCPU, "cpu_seconds")] = c.Pid()
		}
	}
	return out
}

func (t todayCluster) HTTPClient() *http.Client { return t.st.HTTPClient() }

// CountsFromZero: the meter the requests are counted by starts before
// today's stack's controller-managers.
func (t todayCluster) CountsFromZero() bool { return true }

// onToday says whether the env runs on today's stack.
func (e *Env) onToday() bool { return e.Variant.OnToday() }

// ForToday adapts a scenario's figures to today's stack: those that cannot
// be measured there as on ours are left out (the hollow nodes' CPU: there
// are none; KWOK and the scheduler play their part, and their CPU is
// given instead, from the time from). On our stack it returns rs as it is.
func (e *Env) ForToday(rs []Result, from float64) []Result {
	if !e.onToday() {
		return rs
	}
	out := keep(rs, func(r Result) bool { return r.Process != sampler.ProcessHollowNode })
	return append(out,
		Result{Name: "kwok_cpu", Process: "kwok", Unit: "CPU s", Value: e.Sampler.Rec.Between(KWOKCPU, from, math.Inf(1)), LowerIsBetter: true},
		Result{Name: "scheduler_cpu", Process: "kube-scheduler", Unit: "CPU s", Value: e.Sampler.Rec.Between(SchedulerCPU, from, math.Inf(1)), LowerIsBetter: true})
}

// NotMetered says which figures a run on today's stack without the
// laboratory's meter (Variant.Unmetered) leaves out, for the pages that
// show them.
const NotMetered = "the figures the meter counts: every request figure of the managers (requests, pod creates, status " +
	"writes, lists, bytes, and each by purpose)"

// meterCounted says whether the meter counts a figure: a count or rate of
// the managers' requests, or of their bytes.
func meterCounted(r Result) bool {
	if r.Process != sampler.ProcessManager {
		return false
	}
	switch r.Unit {
	case "requests", "req/min", "MB", "kB/min":
		return true
	}
	return false
}

// forUnmetered keeps, of a run's figures without the meter
// (Variant.Unmetered), those it measures: none the meter counts.
func (e *Env) forUnmetered(rs []Result) []Result {
	if !e.Variant.Unmetered {
		return rs
	}
	return keep(rs, func(r Result) bool { return !meterCounted(r) })
}
