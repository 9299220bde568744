package etcdpods

import (
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestTodaysPodsAreReadAsOursAreThroughTheMirror: the v1 pods of today's
// stack, mirrored as 2014's pods and served as a learner's store is, are
// listed and watched as ours are: each created, bound, running and
// deleted in turn, with its host and its state; a pod of another
// namespace is left out, and deleting a pod the mirror never held is no
// error.
func TestTodaysPodsAreReadAsOursAreThroughTheMirror(t *testing.T) {
	m := NewV1Mirror("default")
	var mu sync.RWMutex
	srv, err := ServeFedStore(m.Store(), &mu, 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "default", UID: "u1", Labels: map[string]string{"app": "web"}}}
	apply := func(deleted bool, p *v1.Pod) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		e, err := m.Apply(deleted, p)
		if err != nil {
			t.Fatal(err)
		}
		if e != nil {
			srv.Feed([]*v2store.Event{e})
		}
	}
	apply(false, pod)
	other := pod.DeepCopy()
	other.Namespace = "kube-system"
	apply(false, other)
	src := NewTailReader(srv.URL)
	ctx := api.NewDefaultContext()
	list, err := src.ListPods(ctx, labels.Everything())
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != "web-1" || list.Items[0].UID != "u1" {
		t.Fatalf("the list: %+v, %v; want web-1 alone", list, err)
	}
	w, err := src.WatchPods(ctx, labels.Everything(), labels.Everything(), list.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	bound := pod.DeepCopy()
	bound.Spec.NodeName = "kwok-node-0"
	apply(false, bound)
	running := bound.DeepCopy()
	running.Status.Phase = v1.PodRunning
	apply(false, running)
	apply(true, running)
	apply(true, running)
	for _, want := range []struct {
		typ    watch.EventType
		host   string
		status api.PodStatus
	}{
		{watch.Modified, "kwok-node-0", api.PodWaiting},
		{watch.Modified, "kwok-node-0", api.PodRunning},
		{watch.Deleted, "kwok-node-0", api.PodRunning},
	} {
		e := watchtest.Next(t, w)
		p, ok := e.Object.(*api.Pod)
		if e.Type != want.typ || !ok || p.ID != "web-1" || p.CurrentState.Host != want.host || p.CurrentState.Status != want.status {
			t.Errorf("%s %+v, want %s of web-1 on %s, %s", e.Type, e.Object, want.typ, want.host, want.status)
		}
	}
}
