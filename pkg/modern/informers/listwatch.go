package informers

// A reflector (client-go tools/cache) keeps an informer's cache by listing
// once and then watching from the list's resourceVersion; when the watch
// ends it re-watches from the last version it saw, and when the apiserver
// says that version is gone (410) it lists again. ListWatch is that pair of
// calls over our client.

import (
	"context"
	"fmt"
	"sync"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
)

// ListFunc lists every object of one resource through our client.
type ListFunc func(ctx api.Context) (runtime.Object, error)

// WatchFunc opens our client's watch on one resource after resourceVersion.
type WatchFunc func(ctx api.Context, resourceVersion uint64) (watch.Interface, error)

// ConvertFunc turns an object of our watch stream into its v1 type; false
// means the object is not of the resource's kind.
type ConvertFunc func(obj api.Object) (runtime.Object, bool)

// ListWatch lists and watches one resource for a reflector.
type ListWatch struct {
	list    ListFunc
	watch   WatchFunc
	convert ConvertFunc
}

// NewListWatch returns the ListerWatcher of one resource.
func NewListWatch(list ListFunc, watch WatchFunc, convert ConvertFunc) *ListWatch {
	return &ListWatch{list: list, watch: watch, convert: convert}
}

var (
	_ cache.ListerWatcher            = &ListWatch{}
	_ cache.ListerWatcherWithContext = &ListWatch{}
)

// IsWatchListSemanticsUnSupported tells client-go's reflector that this
// source cannot stream its initial state as a watch. Since client-go v0.35
// the reflector otherwise opens a "watch-list" first (sendInitialEvents,
// then a bookmark) and waits for a bookmark our 2014 watch never sends: the
// informer would never sync. With this it lists, then watches.
func (lw *ListWatch) IsWatchListSemanticsUnSupported() bool { return true }

// ListWithContext lists the resource. The options (label and field
// selectors, resourceVersion "0" or "", limit) are ignored: the informers
// want everything, and a 2014 list is always a fresh read of etcd, which is
// what any of those resourceVersions allows.
func (lw *ListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	obj, err := lw.list(ctx)
	return obj, conversion.Error(err)
}

// List is ListWithContext without a context.
func (lw *ListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), options)
}

// WatchWithContext watches the resource from options.ResourceVersion. A
// refusal to open (a 410 for a version etcd has forgotten) comes back as an
// apimachinery error, so the reflector knows to list again.
//
// Ours: upstream also asks the server to end the watch after a random 5 to
// 10 minutes (timeoutSeconds) so that watches spread over apiservers; the
// 2014 watch has no such parameter and lasts until either side ends it.
func (lw *ListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (apiwatch.Interface, error) {
	w, err := lw.watch(ctx, conversion.ResourceVersionFromV1(options.ResourceVersion))
	if err != nil {
		return nil, conversion.Error(err)
	}
	return newWatcher(w, lw.convert), nil
}

// Watch is WatchWithContext without a context.
func (lw *ListWatch) Watch(options metav1.ListOptions) (apiwatch.Interface, error) {
	return lw.WatchWithContext(context.Background(), options)
}

// watcher relays our watch's events as apimachinery events carrying v1
// objects.
type watcher struct {
	in       watch.Interface
	convert  ConvertFunc
	out      chan apiwatch.Event
	stopCh   chan struct{}
	stopOnce sync.Once
}

func newWatcher(in watch.Interface, convert ConvertFunc) *watcher {
	w := &watcher{in: in, convert: convert, out: make(chan apiwatch.Event), stopCh: make(chan struct{})}
	go w.relay()
	return w
}

// ResultChan returns the converted events; it closes when our stream ends.
func (w *watcher) ResultChan() <-chan apiwatch.Event { return w.out }

// Stop ends the stream.
func (w *watcher) Stop() {
	w.stopOnce.Do(func() {
		close(w.stopCh)
		w.in.Stop()
	})
}

func (w *watcher) relay() {
	defer close(w.out)
	for {
		var event watch.Event
		var open bool
		select {
		case <-w.stopCh:
			return
		case event, open = <-w.in.ResultChan():
			if !open {
				return
			}
		}
		out := w.translate(event)
		select {
		case w.out <- out:
		case <-w.stopCh:
			return
		}
		if out.Type == apiwatch.Error {
			// An ERROR ends the stream in 2014 too; the reflector reads the
			// Status (410: list again) and starts over.
			w.Stop()
			return
		}
	}
}

// translate converts one event. An ERROR carries a Status, which becomes a
// metav1.Status; an object of the wrong kind becomes an ERROR too, rather
// than a silent drop, so the reflector starts over.
func (w *watcher) translate(event watch.Event) apiwatch.Event {
	if status, ok := event.Object.(*api.Status); ok {
		return apiwatch.Event{Type: apiwatch.Error, Object: conversion.StatusToV1(status)}
	}
	obj, ok := w.convert(event.Object)
	if !ok {
		return apiwatch.Event{Type: apiwatch.Error, Object: &metav1.Status{
			Status: metav1.StatusFailure, Reason: metav1.StatusReasonInternalError, Code: 500,
			Message: fmt.Sprintf("unexpected object in the watch stream: %T", event.Object),
		}}
	}
	switch event.Type {
	case watch.Added:
		return apiwatch.Event{Type: apiwatch.Added, Object: obj}
	case watch.Modified:
		return apiwatch.Event{Type: apiwatch.Modified, Object: obj}
	case watch.Deleted:
		return apiwatch.Event{Type: apiwatch.Deleted, Object: obj}
	}
	return apiwatch.Event{Type: apiwatch.Error, Object: &metav1.Status{
		Status: metav1.StatusFailure, Reason: metav1.StatusReasonInternalError, Code: 500,
		Message: "unexpected watch event type " + string(event.Type),
	}}
}
