package sampler

// Today's pods, as the counter reads them.
//
// On today's stack the counter lists and watches v1 pods through
// client-go and sees each as the one pod state it counts, from the
// status KWOK writes (there is no etcd of 2014's layout to read, and a
// pod's status is stored, so no read is needed): Running is phase
// Running; terminated is phase Succeeded or Failed, or a pod being
// deleted, which a replication manager no longer counts either;
// unscheduled is a pod without a node; anything else is waiting.
//
// Unlike on our stack, where the counter reads etcd and costs the
// apiserver nothing, this list and watch are the apiserver's work, a
// watch as any client's, counted under the laboratory's own client.

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
)

// V1Pods returns the pods of namespace ns of today's apiserver as the
// counter reads pods.
func V1Pods(c kubernetes.Interface, ns string) etcdpods.Pods {
	return &v1Pods{c: c, ns: ns}
}

type v1Pods struct {
	c  kubernetes.Interface
	ns string
	// resumes counts the watches the apiserver ended that were taken up
	// again from their last version.
	resumes atomic.Int64
}

func (p *v1Pods) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	list, err := p.c.CoreV1().Pods(p.ns).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
	if err != nil {
		return nil, err
	}
	out := &api.PodList{}
	out.ResourceVersion, _ = strconv.ParseUint(list.ResourceVersion, 10, 64)
	for i := range list.Items {
		out.Items = append(out.Items, *etcdpods.PodOfV1(&list.Items[i]))
	}
	return out, nil
}

// Resumes returns how many of the counter's watches kube-apiserver ended
// and the counter took up again from where they were, without a list.
func (p *v1Pods) Resumes() int { return int(p.resumes.Load()) }

func (p *v1Pods) WatchPods(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	ctx, cancel := context.WithCancel(ctx)
	out := &v1Watch{result: make(chan watch.Event), ctx: ctx, cancel: cancel, pods: p,
		opts: metav1.ListOptions{LabelSelector: label.String(), FieldSelector: field.String(), AllowWatchBookmarks: true},
		last: strconv.FormatUint(resourceVersion, 10)}
	in, err := out.open()
	if err != nil {
		cancel()
		return nil, err
	}
	go out.run(in)
	return out, nil
}

// v1Watch passes a client-go watch on as the counter's events. It reads
// the apiserver's stream as fast as it comes and holds what the counter
// has not taken yet, however much: kube-apiserver closes a watch whose
// reader falls behind its buffer, and a counter that then lists every pod
// again costs the apiserver and itself far more than the events held
// (the tail of the laboratory's etcd learner does the same, pkg/etcd).
//
// A watch the apiserver ends without an error, as it does to any
// watcher that does not take its events in time (on two cores, in a
// burst of creates, it ended kube-controller-manager's, kube-scheduler's
// and KWOK's pod watches as well), is taken up again at once from the
// last version seen, bookmarks included, as today's clients do; only
// when the apiserver no longer has that version (410) does the counter
// list every pod again. client-go's RetryWatcher does the same, but
// waits up to a second before it watches again, which would be a second
// late in a count of pods running.
type v1Watch struct {
	result chan watch.Event
	ctx    context.Context
	cancel context.CancelFunc
	pods   *v1Pods
	opts   metav1.ListOptions
	last   string
}

func (w *v1Watch) ResultChan() <-chan watch.Event { return w.result }

func (w *v1Watch) Stop() { w.cancel() }

// open watches from the last version seen.
func (w *v1Watch) open() (kwatch.Interface, error) {
	opts := w.opts
	opts.ResourceVersion = w.last
	return w.pods.c.CoreV1().Pods(w.pods.ns).Watch(w.ctx, opts)
}

func (w *v1Watch) run(in kwatch.Interface) {
	defer close(w.result)
	defer func() { in.Stop() }()
	var held []watch.Event
	events := in.ResultChan()
	for events != nil || len(held) > 0 {
		var out chan<- watch.Event
		var next watch.Event
		if len(held) > 0 {
			out, next = w.result, held[0]
		}
		select {
		case <-w.ctx.Done():
			return
		case e, ok := <-events:
			if !ok {
				events = nil
				if w.ctx.Err() != nil {
					return
				}
				in.Stop()
				again, err := w.open()
				if err != nil {
					held = append(held, errorEvent(err))
					continue
				}
				w.pods.resumes.Add(1)
				in, events = again, again.ResultChan()
				continue
			}
			if p, isPod := e.Object.(*v1.Pod); isPod && p.ResourceVersion != "" {
				w.last = p.ResourceVersion
			}
			if ev, keep := eventOfV1(e); keep {
				held = append(held, ev)
				if ev.Type == watch.Error {
					// An ERROR ends the stream; what came before it is
					// still delivered.
					events = nil
				}
			}
		case out <- next:
			held[0] = watch.Event{}
			held = held[1:]
		}
	}
}

// eventOfV1 is the counter's event of a v1 watch event, and whether the
// counter takes it.
func eventOfV1(e kwatch.Event) (watch.Event, bool) {
	switch obj := e.Object.(type) {
	case *v1.Pod:
		if e.Type == kwatch.Bookmark {
			// Only a version to resume from.
			return watch.Event{}, false
		}
		return watch.Event{Type: watch.EventType(e.Type), Object: etcdpods.PodOfV1(obj)}, true
	default:
		if e.Type != kwatch.Error {
			return watch.Event{}, false
		}
		return errorEvent(apierrors.FromObject(obj)), true
	}
}

// errorEvent is the counter's ERROR for a watch that failed: a watch too
// old to resume (410) is counted as the counter counts etcd's.
func errorEvent(err error) watch.Event {
	code := http.StatusInternalServerError
	if status, ok := err.(apierrors.APIStatus); ok && status.Status().Code != 0 {
		code = int(status.Status().Code)
	}
	if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
		code = http.StatusGone
	}
	return watch.Event{Type: watch.Error, Object: &api.Status{Status: "Failure", Code: code}}
}
