package hollownode

import (
	"fmt"
	"sort"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"k8s.io/client-go/util/retry"
)

// FailNode marks a node failed: every pod on it turns Terminated, and no new
// pod is bound to it until RecoverNode.
func (h *Cluster) FailNode(ctx api.Context, node string) error {
	h.mu.Lock()
	if _, ok := h.podsPerNode[node]; !ok {
		h.mu.Unlock()
		return fmt.Errorf("no hollow node named %q", node)
	}
	h.failedNodes[node] = true
	var victims []*api.Pod
	for _, pod := range h.pods {
		if pod.DesiredState.Host == node && pod.CurrentState.Status != api.PodTerminated {
			victims = append(victims, pod)
		}
	}
	h.mu.Unlock()
	glog.Infof("failing hollow node %s and its %d pods", node, len(victims))
	for _, pod := range victims {
		h.terminate(ctx, pod)
	}
	return nil
}

// terminate marks one pod Terminated, reading it again after a conflict.
func (h *Cluster) terminate(ctx api.Context, pod *api.Pod) {
	if h.kubelets() {
		h.mu.Lock()
		run, ok := h.runs[pod.ID]
		run.failed = true
		if ok {
			h.runs[pod.ID] = run
			h.stats.Failures++
		}
		h.mu.Unlock()
		return
	}
	err := retry.OnError(retry.DefaultRetry, errors.IsConflict, func() error {
		updated := *pod
		updated.CurrentState.Status = api.PodTerminated
		updated.CurrentState.Conditions = []api.Condition{readyCondition("False")}
		err := h.update(ctx, &updated)
		if errors.IsConflict(err) {
			fresh, gerr := h.client.GetPod(ctx, pod.ID)
			if gerr != nil {
				return gerr
			}
			pod = fresh
		}
		return err
	})
	if err == nil {
		h.mu.Lock()
		h.stats.Failures++
		h.mu.Unlock()
	}
}

// RecoverNode lets a failed node take pods again. Its Terminated pods stay
// Terminated, as a rebooted 2014 minion's would.
func (h *Cluster) RecoverNode(node string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.failedNodes[node] {
		return fmt.Errorf("hollow node %q is not failed", node)
	}
	delete(h.failedNodes, node)
	return nil
}

// SetFailFraction sets the share of starting pods that fail.
func (h *Cluster) SetFailFraction(f float64) error {
	if f < 0 || f > 1 {
		return fmt.Errorf("fail fraction %v is outside 0..1", f)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cfg.FailFraction = f
	return nil
}

// SetChurn sets how many Running pods are deleted each second.
func (h *Cluster) SetChurn(perSecond float64) error {
	if perSecond < 0 || perSecond > 1000 {
		return fmt.Errorf("churn rate %v is outside 0..1000 per second", perSecond)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cfg.ChurnPerSecond = perSecond
	return nil
}

// State is what the admin endpoint reports.
type State struct {
	Nodes          map[string]int `json:"nodes"`
	FailedNodes    []string       `json:"failedNodes"`
	FailFraction   float64        `json:"failFraction"`
	ChurnPerSecond float64        `json:"churnPerSecond"`
	Pods           int            `json:"pods"`
	Stats          Stats          `json:"stats"`
	// Events are watch events read but not applied yet; Queued the pods
	// waiting for a worker to bind or start them (not counting those
	// still in their start delay).
	Events int `json:"events"`
	Queued int `json:"queued"`
	// WatchLag is how many etcd indexes the pod watch's last event is
	// behind the hollow nodes' last write, MaxWatchLag the most it has
	// been: at 1000 the watch falls out of etcd's window.
	WatchLag    uint64 `json:"watchLag"`
	MaxWatchLag uint64 `json:"maxWatchLag"`
}

// State returns the current settings and counts.
func (h *Cluster) State() State {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := State{
		Nodes:          map[string]int{},
		FailedNodes:    []string{},
		FailFraction:   h.cfg.FailFraction,
		ChurnPerSecond: h.cfg.ChurnPerSecond,
		Pods:           len(h.pods),
		Stats:          h.stats,
		Events:         h.events.len(),
		Queued:         h.queue.Len() + h.starts.Len(),
		WatchLag:       h.lag.now(),
		MaxWatchLag:    h.lag.max.Load(),
	}
	for n, c := range h.podsPerNode {
		s.Nodes[n] = c
	}
	for n := range h.failedNodes {
		s.FailedNodes = append(s.FailedNodes, n)
	}
	sort.Strings(s.FailedNodes)
	return s
}

// churn deletes a random Running pod at the configured rate.
func (h *Cluster) churn(ctx api.Context, stopCh <-chan struct{}) {
	const tick = 10 * time.Millisecond
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	owed := 0.0
	for {
		select {
		case <-stopCh:
			return
		case <-ticker.C:
		}
		h.mu.Lock()
		owed += h.cfg.ChurnPerSecond * tick.Seconds()
		if h.cfg.ChurnPerSecond == 0 {
			owed = 0
		}
		var victims []string
		for owed >= 1 {
			owed--
			if id := h.randomRunningLocked(); id != "" {
				victims = append(victims, id)
			}
		}
		h.mu.Unlock()
		for _, id := range victims {
			if err := h.client.DeletePod(ctx, id); err == nil {
				h.mu.Lock()
				h.stats.ChurnDeletes++
				h.mu.Unlock()
			}
		}
	}
}

func (h *Cluster) randomRunningLocked() string {
	var running []string
	for id, pod := range h.pods {
		if h.runningLocked(pod) {
			running = append(running, id)
		}
	}
	if len(running) == 0 {
		return ""
	}
	sort.Strings(running)
	return running[h.rng.Intn(len(running))]
}
