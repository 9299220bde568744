package hollownode

import (
	"fmt"
	"net"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"k8s.io/client-go/util/workqueue"
)

// The binds and the starts the watch calls for wait in two workqueues, one
// for each (one entry per pod, however often it is queued), and Workers
// goroutines on each write them, each a request of its own, as v0.4's
// scheduler bound each pod with one POST to /bindings. A start does not
// wait behind the binds queued before it: v0.4's kubelets started a pod
// once its manifest reached them, whatever the scheduler had still to
// bind, as today's kubelets (KWOK) do. A bind or start that failed for
// another reason than a conflict (no node, the apiserver or etcd away, a
// pod not yet on the member the apiserver reads) is tried again after
// retryFirst, doubled up to retryMax: v0.4's scheduler backed off a pod
// it could not place or bind by the same steps
// (plugin/pkg/scheduler/factory, podBackoff).
//
// Ours: v0.4's scheduler bound one pod at a time; the hollow nodes bind
// up to Workers at once, and start up to Workers beside them, so that
// they are never what holds a scale-up back. Before a retry v0.4's
// scheduler read the pod again with a GET and dropped it if that failed
// or the pod was bound; the hollow nodes take the pod's state from their
// watch, so the apiserver sees one GET fewer per retry. A start is a
// status write here, where v0.4's kubelets wrote nothing (kubelet.go).

const (
	retryFirst = time.Second
	retryMax   = 60 * time.Second
)

// worker serves one of the two queues, the binds' or the starts', until
// it shuts down. Either does whatever a pod needs next (handle), so a pod
// that changed while it waited is still served right.
func (h *Cluster) worker(ctx api.Context, queue workqueue.TypedRateLimitingInterface[string]) {
	for {
		id, shutdown := queue.Get()
		if shutdown {
			return
		}
		func() {
			defer queue.Done(id)
			defer util.HandleCrash()
			if h.handle(ctx, id) {
				queue.AddRateLimited(id)
			} else {
				queue.Forget(id)
			}
		}()
	}
}

// handle does the next step for one pod: bind it, or start it, and says
// whether to try again later. A pod bound or started already, whose change
// the watch has not brought yet (a list older than the write can bring its
// old state again), is left alone: the write is not repeated.
func (h *Cluster) handle(ctx api.Context, id string) (retry bool) {
	h.mu.Lock()
	pod := h.pods[id]
	_, bound := h.assumed[id]
	started := h.started[id]
	h.mu.Unlock()
	if pod == nil {
		return false
	}
	if pod.DesiredState.Host == "" {
		return !bound && retriable(h.bind(ctx, pod))
	}
	if (pod.CurrentState.Status == api.PodWaiting || pod.CurrentState.Status == "") && !started {
		return retriable(h.start(ctx, pod))
	}
	return false
}

// errNoNode says no node could take a pod: as v0.4's scheduler did, the
// pod is tried again later.
var errNoNode = fmt.Errorf("no healthy hollow node")

// retriable says whether a failed write may succeed later: not when the pod
// changed (the watch brings what to do next). A pod not found is tried
// again: read from etcd, the hollow nodes can see a pod before the member
// the apiserver reads has it; a pod really deleted leaves the queue when
// the watch brings its deletion.
func retriable(err error) bool {
	return err != nil && !errors.IsConflict(err)
}

// failed says whether a write failed for a reason worth counting and
// logging: neither a conflict nor a missing pod.
func failed(err error) bool {
	return retriable(err) && !errors.IsNotFound(err)
}

// bind assigns the pod to the healthy, registered minion with the fewest
// pods.
func (h *Cluster) bind(ctx api.Context, pod *api.Pod) error {
	host := h.pickNode(pod.ID)
	if host == "" {
		glog.Warningf("no healthy hollow node for pod %s", pod.ID)
		return errNoNode
	}
	err := h.client.CreateBinding(ctx, &api.Binding{PodID: pod.ID, Host: host})
	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		if h.assumed[pod.ID] == host {
			h.podsPerNode[host]--
			delete(h.assumed, pod.ID)
		}
		if failed(err) {
			h.stats.WriteErrors++
			glog.Errorf("binding pod %s to %s: %v", pod.ID, host, err)
		}
		return err
	}
	h.stats.Binds++
	return nil
}

// pickNode returns the healthy, registered node with the fewest pods (the
// first by name among equals) and counts podID on it at once, so that a
// burst of binds spreads over the nodes before the watch reports any of
// them; observe then finds the pod already counted.
func (h *Cluster) pickNode(podID string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	best := ""
	for n, count := range h.podsPerNode {
		if h.failedNodes[n] || h.unregistered[n] {
			continue
		}
		if best == "" || count < h.podsPerNode[best] || (count == h.podsPerNode[best] && n < best) {
			best = n
		}
	}
	if best == "" {
		return ""
	}
	h.podsPerNode[best]++
	h.assumed[podID] = best
	return best
}

// start marks a bound pod Running (or, for the failing fraction, Terminated).
func (h *Cluster) start(ctx api.Context, pod *api.Pod) error {
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
		return nil
	}
	updated := *pod
	updated.CurrentState.Host = pod.DesiredState.Host
	updated.CurrentState.HostIP = h.hostIPs[pod.DesiredState.Host]
	if fail {
		updated.CurrentState.Status = api.PodTerminated
		updated.CurrentState.Conditions = []api.Condition{readyCondition("False")}
	} else {
		updated.CurrentState.Status = api.PodRunning
		updated.CurrentState.PodIP = podIP
		updated.CurrentState.Conditions = []api.Condition{readyCondition("True")}
	}
	if err := h.update(ctx, &updated); err != nil {
		return err
	}
	h.mu.Lock()
	if seen := h.pods[pod.ID]; seen != nil && (seen.CurrentState.Status == api.PodWaiting || seen.CurrentState.Status == "") {
		h.started[pod.ID] = true
	}
	h.mu.Unlock()
	h.count(fail)
	return nil
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
	written, err := h.client.UpdatePod(ctx, pod)
	if err == nil && written != nil {
		h.lag.wrote(written.ResourceVersion)
	}
	if failed(err) {
		h.mu.Lock()
		h.stats.WriteErrors++
		h.mu.Unlock()
		glog.Errorf("updating pod %s: %v", pod.ID, err)
	}
	return err
}
