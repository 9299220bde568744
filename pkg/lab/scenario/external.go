package scenario

// Scenarios on a cluster the laboratory did not start: the variant
// cluster, given a kubeconfig (rcbench bench -kubeconfig). It is how the
// benchmark goes past one machine, onto a real distributed control plane
// whose nodes are KWOK's or real.
//
// The cluster is someone's: the run keeps to a namespace of its own,
// refuses one that holds anything it did not create, labels everything it
// creates with its run, and deletes only that. It measures what a client
// can see from outside: the pods through a watch of the namespace, and
// the apiserver's own /metrics (its CPU, memory and requests, all
// clients' together); the managers' processes and requests are not its to
// read, and those figures are left out, not reported as zero.

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// DefaultNamespace is where runs on an external cluster create their
// objects unless Options.Namespace names another.
const DefaultNamespace = "kube-rewind"

// The labels of everything a run on an external cluster creates: the
// namespace (when the run created it), the controllers and, through their
// templates, their pods.
const (
	CreatedByLabel = "app.kubernetes.io/managed-by"
	CreatedBy      = "kube-rewind-rcbench"
	RunLabel       = "kube-rewind.io/run"
)

// startExternal runs sc on the cluster of opts.Kubeconfig, in the
// namespace opts.Namespace, and starts sampling it.
func startExternal(sc *Scenario, v Variant, sz Size, opts Options) (*Env, error) {
	if err := runsOnToday(sc, sz, "an external cluster"); err != nil {
		return nil, err
	}
	if opts.Kubeconfig == "" {
		return nil, fmt.Errorf("the variant %s runs on the cluster of a kubeconfig: give one (rcbench bench -kubeconfig=FILE)", v.Name)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", opts.Kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig %s: %v", opts.Kubeconfig, err)
	}
	ns := opts.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	run := fmt.Sprintf("%s-%d", sc.Name, time.Now().UnixNano())
	steps, err := kubernetes.NewForConfig(withAgent(cfg, "scenario"))
	if err != nil {
		return nil, err
	}
	lab, err := kubernetes.NewForConfig(withAgent(cfg, "kube-rewind-laboratory"))
	if err != nil {
		return nil, err
	}
	httpClient, err := rest.HTTPClientFor(withAgent(cfg, "kube-rewind-laboratory"))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	created, err := ClaimNamespace(ctx, steps, ns, run)
	if err != nil {
		return nil, err
	}
	say := opts.say()
	ec := &externalCluster{
		todayCluster: todayCluster{c: steps, lab: lab, ns: ns},
		run:          run, created: created, say: say,
		metrics: strings.TrimSuffix(cfg.Host, "/") + "/metrics", http: httpClient,
	}
	iv := opts.intervals(sc)
	iv.APIServer = max(iv.APIServer, ExternalScrape)
	e := &Env{Variant: v, Size: sz, Cluster: ec, Say: say, marks: map[string]time.Time{}}
	e.Sampler = sampler.NewOf(nil, ec, labels.Everything(), iv)
	if err := e.Sampler.Start(); err != nil {
		ec.Stop()
		return nil, err
	}
	e.Mark("start")
	return e, nil
}

func withAgent(cfg *rest.Config, agent string) *rest.Config {
	out := rest.CopyConfig(cfg)
	out.UserAgent = agent
	return out
}

// ClaimNamespace makes ns the run's: it creates it, labelled with run,
// when it does not exist, and reports that it did; an existing one is
// used only while it holds no replication controller, pod or service,
// which the run would count, resize or delete as its own. It refuses
// otherwise, naming what it found, and creates nothing.
func ClaimNamespace(ctx context.Context, c kubernetes.Interface, ns, run string) (created bool, err error) {
	_, err = c.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		obj := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns, Labels: map[string]string{CreatedByLabel: CreatedBy, RunLabel: run}}}
		if _, err := c.CoreV1().Namespaces().Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			return false, fmt.Errorf("creating the namespace %s: %v", ns, err)
		}
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading the namespace %s: %v", ns, err)
	}
	var found []string
	rcs, err := c.CoreV1().ReplicationControllers(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	for _, o := range rcs.Items {
		found = append(found, "replicationcontroller/"+o.Name)
	}
	pods, err := c.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	for _, o := range pods.Items {
		found = append(found, "pod/"+o.Name)
	}
	svcs, err := c.CoreV1().Services(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return false, err
	}
	for _, o := range svcs.Items {
		found = append(found, "service/"+o.Name)
	}
	if len(found) > 0 {
		sort.Strings(found)
		if len(found) > 5 {
			found = append(found[:5], fmt.Sprintf("and %d more", len(found)-5))
		}
		return false, fmt.Errorf("the namespace %s holds objects this run did not create (%s): the benchmark counts, resizes "+
			"and deletes what is in its namespace, so it needs one of its own; give another with -namespace, or empty this one",
			ns, strings.Join(found, ", "))
	}
	return false, nil
}

// ReleaseNamespace deletes what run created in ns: its replication
// controllers, with their pods after them (propagation in the
// background, through the cluster's garbage collector), and then the
// namespace itself when the run created it and nothing else is in it.
// Nothing without the run's label is deleted.
func ReleaseNamespace(ctx context.Context, c kubernetes.Interface, ns, run string, created bool) error {
	mine := metav1.ListOptions{LabelSelector: RunLabel + "=" + run}
	rcs, err := c.CoreV1().ReplicationControllers(ns).List(ctx, mine)
	if err != nil {
		return err
	}
	background := metav1.DeletePropagationBackground
	for _, rc := range rcs.Items {
		err := c.CoreV1().ReplicationControllers(ns).Delete(ctx, rc.Name, metav1.DeleteOptions{PropagationPolicy: &background})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	// The pods go with their controllers; wait for them, so that the
	// next run starts on an empty namespace.
	err = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		pods, err := c.CoreV1().Pods(ns).List(ctx, mine)
		return err == nil && len(pods.Items) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("the pods of run %s are still in %s: %v", run, ns, err)
	}
	if !created {
		return nil
	}
	if _, err := ClaimNamespace(ctx, c, ns, run); err != nil {
		return fmt.Errorf("the namespace %s is left in place: %v", ns, err)
	}
	err = c.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// externalCluster is a cluster of a kubeconfig, as the steps and the
// sampler see it: today's stack's client side, without its processes.
type externalCluster struct {
	todayCluster
	run     string
	created bool
	say     func(string, ...interface{})
	metrics string
	http    *http.Client
}

// CreateController creates rc labelled, and its pods through its
// template, with the run, so that only the run's objects are deleted.
func (x *externalCluster) CreateController(ctx context.Context, rc *api.ReplicationController) error {
	obj := today.ControllerV1(rc, x.ns)
	obj.Labels = withRun(obj.Labels, x.run)
	if obj.Spec.Template != nil {
		obj.Spec.Template.Labels = withRun(obj.Spec.Template.Labels, x.run)
	}
	_, err := x.c.CoreV1().ReplicationControllers(x.ns).Create(ctx, obj, metav1.CreateOptions{})
	return err
}

func withRun(l map[string]string, run string) map[string]string {
	out := map[string]string{RunLabel: run}
	for k, v := range l {
		out[k] = v
	}
	return out
}

// Stop deletes what the run created; the cluster goes on running.
func (x *externalCluster) Stop() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := ReleaseNamespace(ctx, x.c, x.ns, x.run, x.created); err != nil {
		x.say("cleaning up the namespace %s: %v", x.ns, err)
	}
}

func (x *externalCluster) Processes() []*stack.Process { return nil }

func (x *externalCluster) Pods() etcdpods.Pods { return sampler.V1Pods(x.lab, x.ns) }

func (x *externalCluster) RequestsURL() string { return x.metrics }

func (x *externalCluster) APIServer() (int, []int) { return 0, nil }

func (x *externalCluster) Managers() []sampler.Endpoint { return nil }

func (x *externalCluster) Others() map[string]int { return nil }

func (x *externalCluster) HTTPClient() *http.Client { return x.http }

// CountsFromZero: the cluster's managers ran before the run came.
func (x *externalCluster) CountsFromZero() bool { return false }

// ExternalScrape is how often a run on an external cluster reads the
// apiserver's /metrics, besides once at each of the scenario's marks:
// kube-apiserver's is megabytes, even on a cluster of ten KWOK nodes,
// and read at our stacks' 250 ms it would cost the apiserver and the
// laboratory more CPU than a small scale-up does. Figures counted between
// marks are as exact either way; only the charts' apiserver series are
// coarser.
const ExternalScrape = 10 * time.Second

// NotMeasuredOutside says which figures a run on an external cluster
// leaves out, for the pages that show them.
const NotMeasuredOutside = "the managers' figures (requests, pod creates, status writes, goroutines, memory, sockets, CPU), " +
	"which need their processes or a meter in front of the apiserver, and KWOK's and the scheduler's CPU; " +
	"apiserver_cpu is the process_cpu_seconds_total of whichever apiserver answered /metrics, " +
	"so of one of several behind a load balancer, with its etcd not counted, and it includes serving the laboratory's " +
	"reads of /metrics (every 10 s and at each mark)"

// forExternal keeps, of a scenario's figures, those a client outside the
// cluster measures as the laboratory does on its own stacks: none of a
// process it cannot read (NotMeasuredOutside).
func (e *Env) forExternal(rs []Result) []Result {
	if !e.Variant.Runs(ExternalCluster) {
		return rs
	}
	return keep(rs, func(r Result) bool {
		switch r.Process {
		case sampler.ProcessManager, sampler.ProcessHollowNode, "kwok", "kube-scheduler":
			return false
		}
		return true
	})
}

// keep returns the figures of rs that measured says a run measures.
func keep(rs []Result, measured func(Result) bool) []Result {
	var out []Result
	for _, r := range rs {
		if measured(r) {
			out = append(out, r)
		}
	}
	return out
}
