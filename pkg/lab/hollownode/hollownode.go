package hollownode

import (
	"fmt"
	"math/rand"
	"net"
	"sort"
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"k8s.io/client-go/util/workqueue"
)

// Config says how many nodes to pretend to be and how pods behave on them.
type Config struct {
	// Nodes is the number of minions to register.
	Nodes int
	// NamePrefix names the minions: <prefix>0, <prefix>1, …
	NamePrefix string
	// StartDelay is the time from binding to Running.
	StartDelay time.Duration
	// Workers is how many bind and status writes may be in flight at once.
	Workers int
	// FailFraction is the share of pods that go Terminated instead of
	// Running when they start (0..1).
	FailFraction float64
	// ChurnPerSecond is how many Running pods to delete each second.
	ChurnPerSecond float64
	// Seed makes the random choices repeatable; 0 picks one from the clock.
	Seed int64
	// KubeletPort, when set, makes the hollow nodes v0.4's kubelets toward
	// an apiserver that asks them for pod status (kubelet.go): minions
	// named by loopback addresses, serving /podInfo on this port, and no
	// status writes.
	KubeletPort int
}

// Cluster is a set of hollow nodes sharing one pod watch.
type Cluster struct {
	client client.Interface
	cfg    Config
	queue  workqueue.TypedDelayingInterface[string]
	stats  Stats

	mu          sync.Mutex
	rng         *rand.Rand
	pods        map[string]*api.Pod // by id: the last state seen
	podsPerNode map[string]int
	failedNodes map[string]bool
	// unregistered holds the nodes whose minion was gone at the last poll.
	unregistered map[string]bool
	// assumed holds the node each pod was just bound to, counted before
	// the watch reports the binding.
	assumed map[string]string
	nextIP  uint32
	// runs holds the pods the kubelets started, by id (KubeletPort only).
	runs map[string]podRun
	// bindBackoff holds the next wait of each pod whose binding failed.
	bindBackoff map[string]time.Duration
}

// Stats counts what the hollow nodes did.
type Stats struct {
	Binds, Starts, Failures, ChurnDeletes, Relists, WriteErrors int64
}

// New returns a cluster of hollow nodes that talks to the apiserver through c.
func New(c client.Interface, cfg Config) *Cluster {
	if cfg.Nodes <= 0 {
		cfg.Nodes = 1
	}
	if cfg.NamePrefix == "" {
		cfg.NamePrefix = "hollow-node-"
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 16
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	return &Cluster{
		client:       c,
		cfg:          cfg,
		queue:        workqueue.NewTypedDelayingQueue[string](),
		rng:          rand.New(rand.NewSource(seed)),
		pods:         map[string]*api.Pod{},
		podsPerNode:  map[string]int{},
		failedNodes:  map[string]bool{},
		unregistered: map[string]bool{},
		assumed:      map[string]string{},
		nextIP:       1,
		runs:         map[string]podRun{},
		bindBackoff:  map[string]time.Duration{},
	}
}

// NodeName returns the name of node i.
func (h *Cluster) NodeName(i int) string {
	if h.kubelets() {
		return KubeletAddress(i)
	}
	return fmt.Sprintf("%s%d", h.cfg.NamePrefix, i)
}

// minionResources is the capacity every minion registers with: what v0.4's
// apiserver gave each minion of -machines by default (-node_milli_cpu=1000,
// -node_memory=3 GiB). Nothing here schedules by it.
var minionResources = api.NodeResources{Capacity: api.ResourceList{
	api.ResourceCPU:    util.NewIntOrStringFromInt(1000),
	api.ResourceMemory: util.NewIntOrStringFromInt(3 * 1024 * 1024 * 1024),
}}

// hostIP returns the address of node i: 10.240.x.y.
func hostIP(i int) string {
	return net.IPv4(10, 240, byte(i>>8), byte(i)+1).String()
}

// Run registers the minions and serves pods until stopCh closes.
func (h *Cluster) Run(stopCh <-chan struct{}) error {
	ctx := api.NewDefaultContext()
	if h.kubelets() {
		if err := h.serveKubelets(stopCh); err != nil {
			return err
		}
	}
	for i := 0; i < h.cfg.Nodes; i++ {
		minion := &api.Minion{TypeMeta: api.TypeMeta{ID: h.NodeName(i)}, HostIP: hostIP(i), NodeResources: minionResources}
		if _, err := h.client.CreateMinion(minion); err != nil && !errors.IsAlreadyExists(err) {
			return fmt.Errorf("registering minion %s: %v", minion.ID, err)
		}
		h.mu.Lock()
		h.podsPerNode[minion.ID] += 0
		h.mu.Unlock()
	}
	glog.Infof("registered %d hollow minions", h.cfg.Nodes)
	for i := 0; i < h.cfg.Workers; i++ {
		go h.worker(ctx)
	}
	go h.churn(ctx, stopCh)
	go h.pollMinions(MinionPollPeriod, stopCh)
	go func() {
		<-stopCh
		h.queue.ShutDown()
	}()
	for {
		select {
		case <-stopCh:
			return nil
		default:
		}
		if err := h.listAndWatch(ctx, stopCh); err != nil {
			glog.Errorf("pod watch ended: %v", err)
			select {
			case <-stopCh:
				return nil
			case <-time.After(time.Second):
			}
		}
	}
}

// listAndWatch lists every pod, then follows the pod watch from the list's
// resourceVersion until it ends. A 410 (the watch fell out of etcd's event
// window) ends it too, and the caller lists again.
func (h *Cluster) listAndWatch(ctx api.Context, stopCh <-chan struct{}) error {
	list, err := h.client.ListPods(ctx, labels.Everything())
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.stats.Relists++
	seen := map[string]bool{}
	for i := range list.Items {
		seen[list.Items[i].ID] = true
	}
	for id, pod := range h.pods {
		if !seen[id] {
			h.forgetLocked(pod)
		}
	}
	h.mu.Unlock()
	for i := range list.Items {
		h.observe(&list.Items[i])
	}
	w, err := h.client.WatchPods(ctx, labels.Everything(), labels.Everything(), list.ResourceVersion)
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case <-stopCh:
			return nil
		case event, open := <-w.ResultChan():
			if !open {
				return fmt.Errorf("watch closed")
			}
			switch event.Type {
			case watch.Error:
				return fmt.Errorf("watch error: %v", event.Object)
			case watch.Deleted:
				if pod, ok := event.Object.(*api.Pod); ok {
					h.mu.Lock()
					h.forgetLocked(pod)
					h.mu.Unlock()
				}
			default:
				if pod, ok := event.Object.(*api.Pod); ok {
					h.observe(pod)
				}
			}
		}
	}
}

// observe records the latest state of a pod and queues whatever it needs
// next: a binding, or a start after the delay.
func (h *Cluster) observe(pod *api.Pod) {
	h.mu.Lock()
	old := h.pods[pod.ID]
	if old != nil && old.ResourceVersion > pod.ResourceVersion {
		h.mu.Unlock()
		return
	}
	if old != nil && old.DesiredState.Host != "" && old.DesiredState.Host != pod.DesiredState.Host {
		h.podsPerNode[old.DesiredState.Host]--
	}
	if (old == nil || old.DesiredState.Host != pod.DesiredState.Host) && pod.DesiredState.Host != "" {
		if h.assumed[pod.ID] == pod.DesiredState.Host {
			delete(h.assumed, pod.ID)
		} else {
			h.podsPerNode[pod.DesiredState.Host]++
		}
	}
	h.pods[pod.ID] = pod
	h.mu.Unlock()

	switch {
	case pod.DesiredState.Host == "":
		h.queue.Add(pod.ID)
	case pod.CurrentState.Status == api.PodWaiting || pod.CurrentState.Status == "":
		h.queue.AddAfter(pod.ID, h.cfg.StartDelay)
	}
}

func (h *Cluster) forgetLocked(pod *api.Pod) {
	delete(h.runs, pod.ID)
	delete(h.bindBackoff, pod.ID)
	if host, ok := h.assumed[pod.ID]; ok {
		h.podsPerNode[host]--
		delete(h.assumed, pod.ID)
	}
	if old, ok := h.pods[pod.ID]; ok {
		if old.DesiredState.Host != "" {
			h.podsPerNode[old.DesiredState.Host]--
		}
		delete(h.pods, pod.ID)
	}
}

func (h *Cluster) worker(ctx api.Context) {
	for {
		id, shutdown := h.queue.Get()
		if shutdown {
			return
		}
		func() {
			defer h.queue.Done(id)
			defer util.HandleCrash()
			h.handle(ctx, id)
		}()
	}
}

// handle does the next step for one pod: bind it, or start it.
func (h *Cluster) handle(ctx api.Context, id string) {
	h.mu.Lock()
	pod := h.pods[id]
	h.mu.Unlock()
	if pod == nil {
		return
	}
	if pod.DesiredState.Host == "" {
		h.bind(ctx, pod)
		return
	}
	if pod.CurrentState.Status == api.PodWaiting || pod.CurrentState.Status == "" {
		h.start(ctx, pod)
	}
}

// bind assigns the pod to the healthy, registered minion with the fewest
// pods.
func (h *Cluster) bind(ctx api.Context, pod *api.Pod) {
	host := h.pickNode(pod.ID)
	if host == "" {
		glog.Warningf("no healthy hollow node for pod %s", pod.ID)
		h.mu.Lock()
		h.retryBindLocked(pod.ID)
		h.mu.Unlock()
		return
	}
	err := h.client.CreateBinding(ctx, &api.Binding{PodID: pod.ID, Host: host})
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		if h.assumed[pod.ID] == host {
			h.podsPerNode[host]--
			delete(h.assumed, pod.ID)
		}
		if !errors.IsNotFound(err) && !errors.IsConflict(err) {
			h.stats.WriteErrors++
			glog.Errorf("binding pod %s to %s: %v", pod.ID, host, err)
			h.retryBindLocked(pod.ID)
		}
		return
	}
	delete(h.bindBackoff, pod.ID)
	h.stats.Binds++
}

// retryBindLocked binds the pod again after a backoff, as v0.4's
// scheduler retried a pod it failed to place or bind
// (plugin/pkg/scheduler/factory, makeDefaultErrorFunc): 1 s, doubled at
// each failure up to 60 s, per pod. The watch's latest view of the pod
// then says whether it still needs a binding.
func (h *Cluster) retryBindLocked(id string) {
	d := h.bindBackoff[id]
	if d == 0 {
		d = time.Second
	}
	h.bindBackoff[id] = min(2*d, time.Minute)
	h.queue.AddAfter(id, d)
}

func (h *Cluster) pickNode(podID string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	nodes := make([]string, 0, len(h.podsPerNode))
	for n := range h.podsPerNode {
		if !h.failedNodes[n] && !h.unregistered[n] {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 {
		return ""
	}
	sort.Slice(nodes, func(i, j int) bool {
		if h.podsPerNode[nodes[i]] != h.podsPerNode[nodes[j]] {
			return h.podsPerNode[nodes[i]] < h.podsPerNode[nodes[j]]
		}
		return nodes[i] < nodes[j]
	})
	// Count the pod now, so that a burst of binds spreads over the nodes
	// before the watch reports any of them; observe() then finds the pod
	// already counted.
	h.podsPerNode[nodes[0]]++
	h.assumed[podID] = nodes[0]
	return nodes[0]
}

// start marks a bound pod Running (or, for the failing fraction, Terminated).
func (h *Cluster) start(ctx api.Context, pod *api.Pod) {
	h.mu.Lock()
	fail := h.failedNodes[pod.DesiredState.Host] || h.rng.Float64() < h.cfg.FailFraction
	ip := h.nextIP
	h.nextIP++
	h.mu.Unlock()
	podIP := net.IPv4(10, byte(64+(ip>>16)&63), byte(ip>>8), byte(ip)).String()

	if h.kubelets() {
		if h.startLocally(pod, fail, podIP) {
			h.count(fail)
		}
		return
	}
	updated := *pod
	updated.CurrentState.Host = pod.DesiredState.Host
	updated.CurrentState.HostIP = h.hostIPOf(pod.DesiredState.Host)
	if fail {
		updated.CurrentState.Status = api.PodTerminated
		updated.CurrentState.Conditions = []api.Condition{readyCondition("False")}
	} else {
		updated.CurrentState.Status = api.PodRunning
		updated.CurrentState.PodIP = podIP
		updated.CurrentState.Conditions = []api.Condition{readyCondition("True")}
	}
	if err := h.update(ctx, &updated); err != nil {
		return
	}
	h.count(fail)
}

// count counts one pod started, or failed at its start.
func (h *Cluster) count(failed bool) {
	h.mu.Lock()
	if failed {
		h.stats.Failures++
	} else {
		h.stats.Starts++
	}
	h.mu.Unlock()
}

func readyCondition(status string) api.Condition {
	return api.Condition{Type: api.ConditionReady, Status: status, LastTransitionTime: util.Now()}
}

// update writes a pod; a conflict means the watch will bring the newer
// version and the pod will be queued again, so it is not an error.
func (h *Cluster) update(ctx api.Context, pod *api.Pod) error {
	_, err := h.client.UpdatePod(ctx, pod)
	if err != nil && !errors.IsConflict(err) && !errors.IsNotFound(err) {
		h.mu.Lock()
		h.stats.WriteErrors++
		h.mu.Unlock()
		glog.Errorf("updating pod %s: %v", pod.ID, err)
	}
	return err
}

func (h *Cluster) hostIPOf(node string) string {
	for i := 0; i < h.cfg.Nodes; i++ {
		if h.NodeName(i) == node {
			return hostIP(i)
		}
	}
	return ""
}

// Stats returns what the hollow nodes did so far.
func (h *Cluster) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stats
}
