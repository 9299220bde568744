package sampler

import (
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Pod states as the sampler counts them.
const (
	StateUnscheduled = "unscheduled"
	StateWaiting     = "waiting"
	StateRunning     = "running"
	StateTerminated  = "terminated"
)

// PodCounts is a snapshot of the pods a PodCounter follows.
type PodCounts struct {
	Unscheduled, Waiting, Running, Terminated int
	// Active is every pod that has not terminated: what a manager counts.
	Active int
	// Created counts pods first seen after the counter started.
	Created int
	// Deleted counts deletions seen after the counter started.
	Deleted int
}

// PodState is one pod for a live picture.
type PodState struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

type podEntry struct {
	state   string
	created time.Time
	// host is the minion the pod is bound to, whose kubelet a status
	// read asks (pods_read.go).
	host string
}

// PodCounter follows every pod matching a selector with a list and a watch,
// relisting when the watch breaks.
type PodCounter struct {
	// client reads pods (pods_read.go); source lists and watches them.
	client   client.Interface
	source   etcdpods.Pods
	selector labels.Selector
	// readStatus reads bound pods to learn their status (pods_read.go):
	// from their minions' kubelets at kubeletPort where it is set, else
	// from the apiserver.
	readStatus  bool
	kubeletPort int

	mu        sync.Mutex
	synced    bool
	lists     int
	expired   int
	pods      map[string]podEntry
	created   int
	deleted   int
	deletions []time.Time
	latencies []time.Duration
}

// NewPodCounter returns a counter of the pods matching selector.
func NewPodCounter(c client.Interface, selector labels.Selector) *PodCounter {
	return &PodCounter{client: c, source: c, selector: selector, pods: map[string]podEntry{}}
}

// readingFrom makes the counter list and watch pods from src instead of
// its client.
func (p *PodCounter) readingFrom(src etcdpods.Pods) *PodCounter {
	p.source = src
	return p
}

func stateOf(pod *api.Pod) string {
	switch {
	case pod.CurrentState.Status == api.PodTerminated:
		return StateTerminated
	case pod.CurrentState.Status == api.PodRunning:
		return StateRunning
	case pod.DesiredState.Host == "" && pod.CurrentState.Host == "":
		return StateUnscheduled
	default:
		return StateWaiting
	}
}

// Run follows pods until stopCh closes.
func (p *PodCounter) Run(stopCh <-chan struct{}) {
	if p.readStatus {
		done := make(chan struct{})
		stack.GoAs(stack.PartStatusReads, func() { defer close(done); p.readWaiting(stopCh) })
		defer func() { <-done }()
	}
	// A list and a new watch 200 ms after a watch ends.
	wait.Until(func() { p.listAndWatch(stopCh) }, 200*time.Millisecond, stopCh)
}

func (p *PodCounter) listAndWatch(stopCh <-chan struct{}) {
	ctx := api.NewDefaultContext()
	list, w, err := etcdpods.ListAndWatch(ctx, p.source, p.selector)
	if err != nil {
		return
	}
	defer w.Stop()
	p.mu.Lock()
	p.lists++
	first := !p.synced
	fresh := map[string]podEntry{}
	for i := range list.Items {
		pod := &list.Items[i]
		entry, known := p.pods[pod.ID]
		if !known {
			entry.created = time.Now()
			if !first {
				p.created++
			}
		}
		entry.state = stateOf(pod)
		fresh[pod.ID] = entry
	}
	if !first {
		for id := range p.pods {
			if _, ok := fresh[id]; !ok {
				p.deleted++
				p.deletions = append(p.deletions, time.Now())
			}
		}
	}
	p.pods = fresh
	p.synced = true
	p.mu.Unlock()

	for {
		select {
		case <-stopCh:
			return
		case event, open := <-w.ResultChan():
			if !open {
				return
			}
			if event.Type == watch.Error {
				if status, ok := event.Object.(*api.Status); ok && status.Code == http.StatusGone {
					p.mu.Lock()
					p.expired++
					p.mu.Unlock()
				}
				return
			}
			pod, ok := event.Object.(*api.Pod)
			if !ok {
				continue
			}
			p.observe(event.Type, pod)
		}
	}
}

func (p *PodCounter) observe(t watch.EventType, pod *api.Pod) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.observeLocked(t, pod)
}

func (p *PodCounter) observeLocked(t watch.EventType, pod *api.Pod) {
	now := time.Now()
	if t == watch.Deleted {
		if _, ok := p.pods[pod.ID]; ok {
			delete(p.pods, pod.ID)
			p.deleted++
			p.deletions = append(p.deletions, now)
		}
		return
	}
	entry, known := p.pods[pod.ID]
	if !known {
		entry.created = now
		p.created++
	}
	state := stateOf(pod)
	// Where only a read shows a pod's status, the watch's stored Waiting
	// says nothing of a pod already read Running or Terminated.
	if p.readStatus && state == StateWaiting && (entry.state == StateRunning || entry.state == StateTerminated) {
		state = entry.state
	}
	// A pod created after a deletion that now runs for the first time
	// stands for the deleted one: the gap is how long the cluster was a
	// replica short.
	if state == StateRunning && entry.state != StateRunning && len(p.deletions) > 0 && entry.created.After(p.deletions[0]) {
		p.latencies = append(p.latencies, now.Sub(p.deletions[0]))
		p.deletions = p.deletions[1:]
	}
	entry.state = state
	if pod.DesiredState.Host != "" {
		entry.host = pod.DesiredState.Host
	}
	p.pods[pod.ID] = entry
}

// Lists returns how many times the counter has listed every pod: once,
// and again after each broken watch.
func (p *PodCounter) Lists() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lists
}

// Expired returns how many of the counter's watches ended with a 410:
// they had fallen out of etcd's window of 1000 events.
func (p *PodCounter) Expired() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.expired
}

// Synced reports whether the first list has been read.
func (p *PodCounter) Synced() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.synced
}

// Counts returns the current counts.
func (p *PodCounter) Counts() PodCounts {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := PodCounts{Created: p.created, Deleted: p.deleted}
	for _, e := range p.pods {
		switch e.state {
		case StateUnscheduled:
			c.Unscheduled++
		case StateWaiting:
			c.Waiting++
		case StateRunning:
			c.Running++
		case StateTerminated:
			c.Terminated++
		}
	}
	c.Active = c.Unscheduled + c.Waiting + c.Running
	return c
}

// ReplacementLatencies returns, for each deleted pod replaced so far, the
// time from the deletion to its replacement running.
func (p *PodCounter) ReplacementLatencies() []time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]time.Duration(nil), p.latencies...)
}

// States returns every pod and its state, oldest first.
func (p *PodCounter) States() []PodState {
	p.mu.Lock()
	type item struct {
		PodState
		created time.Time
	}
	items := make([]item, 0, len(p.pods))
	for id, e := range p.pods {
		items = append(items, item{PodState{ID: id, State: e.state}, e.created})
	}
	p.mu.Unlock()
	sort.Slice(items, func(i, j int) bool {
		if !items[i].created.Equal(items[j].created) {
			return items[i].created.Before(items[j].created)
		}
		return items[i].ID < items[j].ID
	})
	out := make([]PodState, len(items))
	for i := range items {
		out[i] = items[i].PodState
	}
	return out
}
