package hollownode

import (
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
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
	// Workers is how many binds may be in flight at once, and how many
	// starts (status writes) beside them: the stand-in scheduler and the
	// stand-in kubelets each have Workers writers of their own.
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
	// Pods is where the hollow nodes list and watch pods; nil means the
	// client, through the apiserver. The benchmark's stacks read them
	// from etcd (pkg/lab/etcdpods).
	Pods etcdpods.Pods
}

// Cluster is a set of hollow nodes sharing one pod watch.
type Cluster struct {
	client client.Interface
	cfg    Config
	// queue holds the pods to bind, starts the bound pods to start: a
	// queue each, so that a start never waits behind the binds queued
	// before it, as v0.4's kubelets never waited for its scheduler.
	queue  workqueue.TypedRateLimitingInterface[string]
	starts workqueue.TypedRateLimitingInterface[string]
	events *podEvents
	lag    watchLag
	stats  Stats
	// hostIPs gives each node's address by name.
	hostIPs map[string]string
	// registered counts the minions registered so far; Run starts serving
	// pods only when it reaches cfg.Nodes.
	registered atomic.Int64

	mu          sync.Mutex
	rng         *rand.Rand
	pods        map[string]*api.Pod // by id: the last state seen
	podsPerNode map[string]int
	failedNodes map[string]bool
	// unregistered holds the nodes whose minion was gone at the last poll.
	unregistered map[string]bool
	// assumed holds the node each pod was bound to, counted before the
	// watch reports the binding; while a pod is in it, it is not bound
	// again.
	assumed map[string]string
	// started holds the pods whose start was written, until the watch
	// reports it; while a pod is in it, it is not started again.
	started map[string]bool
	nextIP  uint32
	// runs holds the pods the kubelets started, by id (KubeletPort only).
	runs map[string]podRun
}

// Stats counts what the hollow nodes did. Relists counts every list of
// all pods, the first included; Expired the watches that ended because
// they had fallen out of etcd's window of 1000 events (410 Gone).
type Stats struct {
	Binds, Starts, Failures, ChurnDeletes, Relists, Expired, WriteErrors int64
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
	if cfg.Pods == nil {
		cfg.Pods = c
	}
	seed := cfg.Seed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	h := &Cluster{
		client:       c,
		cfg:          cfg,
		queue:        workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](retryFirst, retryMax)),
		starts:       workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](retryFirst, retryMax)),
		events:       newPodEvents(),
		hostIPs:      map[string]string{},
		rng:          rand.New(rand.NewSource(seed)),
		pods:         map[string]*api.Pod{},
		podsPerNode:  map[string]int{},
		failedNodes:  map[string]bool{},
		unregistered: map[string]bool{},
		assumed:      map[string]string{},
		started:      map[string]bool{},
		nextIP:       1,
		runs:         map[string]podRun{},
	}
	for i := 0; i < cfg.Nodes; i++ {
		h.podsPerNode[h.NodeName(i)] = 0
		h.hostIPs[h.NodeName(i)] = hostIP(i)
	}
	return h
}

// NodeName returns the name of node i.
func (h *Cluster) NodeName(i int) string {
	if h.kubelets() {
		return KubeletAddress(i)
	}
	return fmt.Sprintf("%s%d", h.cfg.NamePrefix, i)
}

// minionMemoryGiB is the memory every minion registers with, in GiB:
// v0.4's default -node_memory.
const minionMemoryGiB = 3

// minionResources is the capacity every minion registers with: what v0.4's
// apiserver gave each minion of -machines by default (-node_milli_cpu=1000,
// -node_memory=3 GiB). Nothing here schedules by it.
var minionResources = api.NodeResources{Capacity: api.ResourceList{
	api.ResourceCPU:    util.NewIntOrStringFromInt(1000),
	api.ResourceMemory: util.NewIntOrStringFromInt(minionMemoryGiB * 1024 * 1024 * 1024),
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
	if err := h.registerMinions(); err != nil {
		return err
	}
	glog.Infof("registered %d hollow minions", h.cfg.Nodes)
	for i := 0; i < h.cfg.Workers; i++ {
		go h.worker(ctx, h.queue)
		go h.worker(ctx, h.starts)
	}
	go h.applyEvents(stopCh)
	go h.churn(ctx, stopCh)
	go h.pollMinions(MinionPollPeriod, stopCh)
	go func() {
		<-stopCh
		h.queue.ShutDown()
		h.starts.ShutDown()
	}()
	// A second after a watch ends, a list and a new watch, as v0.4's
	// scheduler restarted its reflectors (pkg/client/cache/reflector.go,
	// util.Forever with a period of a second).
	wait.Until(func() {
		if err := h.listAndWatch(ctx, stopCh); err != nil {
			glog.Errorf("pod watch ended: %v", err)
		}
	}, time.Second, stopCh)
	return nil
}

// registerBackoff spaces the tries of one minion's registration that the
// apiserver answered with a server error or not at all: 8 tries, the
// waits between them doubling from 250 ms to at most 8 s, about 24 s in
// all. v0.4's apiserver answers 5xx when its etcd client times out
// ("All the given peers are not reachable"), which it does on two busy
// cores while a manager's creates compete with the registrations.
var registerBackoff = wait.Backoff{Steps: 8, Duration: 250 * time.Millisecond, Factor: 2, Cap: 8 * time.Second}

// registerMinions registers every node as a minion, one after another.
// A minion already registered (a restarted hollow-node) counts as
// registered; a server error or no answer is tried again with
// registerBackoff; any other error, or the last try's, ends the
// registration with an error that names the minion.
func (h *Cluster) registerMinions() error {
	for i := 0; i < h.cfg.Nodes; i++ {
		minion := &api.Minion{TypeMeta: api.TypeMeta{ID: h.NodeName(i)}, HostIP: hostIP(i), NodeResources: minionResources}
		tries := 0
		err := retry.OnError(registerBackoff, registrationRetriable, func() error {
			tries++
			_, err := h.client.CreateMinion(minion)
			if errors.IsAlreadyExists(err) {
				return nil
			}
			return err
		})
		if err != nil {
			return fmt.Errorf("registering minion %s (%d of %d, %d tries): %v", minion.ID, i+1, h.cfg.Nodes, tries, err)
		}
		if tries > 1 {
			glog.Warningf("registered minion %s at try %d", minion.ID, tries)
		}
		h.registered.Add(1)
	}
	return nil
}

// registrationRetriable says whether a registration may succeed if tried
// again: the apiserver failed (5xx) or gave no status at all (a refused
// or cut connection). A 4xx says the minion itself is wrong.
func registrationRetriable(err error) bool {
	code := errors.CodeOf(err)
	return code == 0 || code >= 500
}

// Registered returns how many of the minions are registered so far and
// how many there are.
func (h *Cluster) Registered() (done, of int) {
	return int(h.registered.Load()), h.cfg.Nodes
}

// HealthzHandler answers 200 once every minion is registered, and 503
// with how many are before that. A stack that went on at the first
// answer would start its managers while the minions still register: the
// pods would compete with the registrations, and a node not yet
// registered takes no pod.
func (h *Cluster) HealthzHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if done, of := h.Registered(); done < of {
			http.Error(w, fmt.Sprintf("registering minions: %d of %d", done, of), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok"))
	})
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
	waiting := pod.CurrentState.Status == api.PodWaiting || pod.CurrentState.Status == ""
	if !waiting {
		delete(h.started, pod.ID)
	}
	h.pods[pod.ID] = pod
	h.mu.Unlock()

	switch {
	case pod.DesiredState.Host == "":
		h.queue.Add(pod.ID)
	case waiting:
		h.starts.AddAfter(pod.ID, h.cfg.StartDelay)
	}
}

func (h *Cluster) forgetLocked(pod *api.Pod) {
	delete(h.runs, pod.ID)
	if host, ok := h.assumed[pod.ID]; ok {
		h.podsPerNode[host]--
		delete(h.assumed, pod.ID)
	}
	delete(h.started, pod.ID)
	if old, ok := h.pods[pod.ID]; ok {
		if old.DesiredState.Host != "" {
			h.podsPerNode[old.DesiredState.Host]--
		}
		delete(h.pods, pod.ID)
	}
}

// Stats returns what the hollow nodes did so far.
func (h *Cluster) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stats
}
