package hollownode

import (
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// The pod watch is read by a goroutine that does nothing else: it appends
// each event to a buffer and reads on. Another goroutine applies the
// events to the pods the hollow nodes know and queues the binds and starts
// they call for. Through the apiserver the watch waits for its reader:
// go-etcd asks etcd for each event once the last few have been passed on
// towards the stream (pkg/tools), so a reader that waited for its own work
// would hold the watch back, and past etcd's window of 1000 events it
// could only list every pod again. (Read from etcd, pkg/lab/etcdpods holds
// the events itself.) v0.4's scheduler read its watches so too: its
// reflectors only stored each event (pkg/client/cache), and it scheduled
// in a goroutine of its own.
//
// Ours: one watch of every pod, where v0.4's scheduler watched
// unscheduled and scheduled pods apart, through the apiserver, and its
// kubelets read their manifests from etcd; read from etcd, the hollow
// nodes spare the apiserver the scheduler's two watches. Their buffer
// keeps every event, where the scheduler's FIFO kept each pod's latest
// state; their workqueue then holds each pod once, as that FIFO did.

// podEvents is the buffer between the watch and the work.
type podEvents struct {
	mu    sync.Mutex
	items []podEvent
	// ready holds a token while items is not empty.
	ready chan struct{}
}

// podEvent is one watch event, or a fresh list of every pod, which
// replaces what the hollow nodes knew.
type podEvent struct {
	event watch.Event
	list  *api.PodList
}

func newPodEvents() *podEvents {
	return &podEvents{ready: make(chan struct{}, 1)}
}

func (b *podEvents) push(e podEvent) {
	b.mu.Lock()
	b.items = append(b.items, e)
	b.mu.Unlock()
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

// take removes and returns everything buffered.
func (b *podEvents) take() []podEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	items := b.items
	b.items = nil
	return items
}

func (b *podEvents) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}

// watchLag follows how far the pod watch runs behind the hollow nodes'
// own writes, in etcd indexes (every write of any object is one): past
// 1000 the watch falls out of etcd's window.
type watchLag struct {
	received atomic.Uint64
	written  atomic.Uint64
	max      atomic.Uint64
}

func raise(v *atomic.Uint64, to uint64) {
	for {
		old := v.Load()
		if to <= old || v.CompareAndSwap(old, to) {
			return
		}
	}
}

// wrote records the resourceVersion a write of the hollow nodes returned.
func (l *watchLag) wrote(rv uint64) {
	raise(&l.written, rv)
	l.update()
}

// saw records the resourceVersion of an event just read from the watch.
func (l *watchLag) saw(rv uint64) {
	raise(&l.received, rv)
	l.update()
}

func (l *watchLag) update() {
	if w, r := l.written.Load(), l.received.Load(); w > r {
		raise(&l.max, w-r)
	}
}

// now returns the current lag.
func (l *watchLag) now() uint64 {
	if w, r := l.written.Load(), l.received.Load(); w > r {
		return w - r
	}
	return 0
}

// listAndWatch lists every pod, then reads the pod watch from the list's
// resourceVersion until it ends, handing everything to the buffer. A 410
// (the watch fell out of etcd's event window) ends it too, counted in
// Stats.Expired, and the caller lists again.
func (h *Cluster) listAndWatch(ctx api.Context, stopCh <-chan struct{}) error {
	list, w, err := etcdpods.ListAndWatch(ctx, h.cfg.Pods, labels.Everything())
	if err != nil {
		return err
	}
	defer w.Stop()
	h.mu.Lock()
	h.stats.Relists++
	h.mu.Unlock()
	h.lag.saw(list.ResourceVersion)
	h.events.push(podEvent{list: list})
	for {
		select {
		case <-stopCh:
			return nil
		case event, open := <-w.ResultChan():
			if !open {
				return fmt.Errorf("watch closed")
			}
			if event.Type == watch.Error {
				if status, ok := event.Object.(*api.Status); ok && status.Code == http.StatusGone {
					h.mu.Lock()
					h.stats.Expired++
					h.mu.Unlock()
				}
				return fmt.Errorf("watch error: %v", event.Object)
			}
			if pod, ok := event.Object.(*api.Pod); ok {
				h.lag.saw(pod.ResourceVersion)
			}
			h.events.push(podEvent{event: event})
		}
	}
}

// applyEvents applies buffered events in order until stopCh closes.
func (h *Cluster) applyEvents(stopCh <-chan struct{}) {
	for {
		select {
		case <-stopCh:
			return
		case <-h.events.ready:
		}
		for _, e := range h.events.take() {
			h.apply(e)
		}
	}
}

func (h *Cluster) apply(e podEvent) {
	if e.list != nil {
		h.replace(e.list)
		return
	}
	pod, ok := e.event.Object.(*api.Pod)
	if !ok {
		glog.Warningf("pod watch sent a %T", e.event.Object)
		return
	}
	if e.event.Type == watch.Deleted {
		h.mu.Lock()
		h.forgetLocked(pod)
		h.mu.Unlock()
		return
	}
	h.observe(pod)
}

// replace makes a fresh list what the hollow nodes know: pods missing
// from it are forgotten, the others observed.
func (h *Cluster) replace(list *api.PodList) {
	seen := make(map[string]bool, len(list.Items))
	for i := range list.Items {
		seen[list.Items[i].ID] = true
	}
	h.mu.Lock()
	for id, pod := range h.pods {
		if !seen[id] {
			h.forgetLocked(pod)
		}
	}
	h.mu.Unlock()
	for i := range list.Items {
		h.observe(&list.Items[i])
	}
}
