package pod

import (
	"errors"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

// fakeMinions is a MinionLister that counts its calls.
type fakeMinions struct {
	mu    sync.Mutex
	ids   []string
	err   error
	calls int
}

func (f *fakeMinions) ListMinions() (*api.MinionList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	list := &api.MinionList{}
	for _, id := range f.ids {
		list.Items = append(list.Items, api.Minion{TypeMeta: api.TypeMeta{ID: id}})
	}
	return list, nil
}

func (f *fakeMinions) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// newStatusStorage returns pods read as v0.4 read them, over minions m1
// and m2, holding: "waiting" (unbound), "bound" (on m1, no status written
// yet), "running" (on m1, Running) and "orphan" (on m3, no such minion).
func newStatusStorage(t *testing.T) (*REST, *fakeMinions) {
	t.Helper()
	registry := etcd.NewRegistry(rt.NewHelper(t))
	minions := &fakeMinions{ids: []string{"m1", "m2"}}
	rest := NewREST(registry, minions)
	for _, p := range []struct {
		id, host string
		status   api.PodStatus
	}{{"waiting", "", ""}, {"bound", "m1", ""}, {"running", "m1", api.PodRunning}, {"orphan", "m3", api.PodRunning}} {
		rt.Create(t, rest, rt.ValidPod(p.id, "web"))
		if p.host == "" {
			continue
		}
		if err := registry.ApplyBinding(ctx, &api.Binding{PodID: p.id, Host: p.host}); err != nil {
			t.Fatal(err)
		}
		pod, err := registry.GetPod(ctx, p.id)
		if err != nil {
			t.Fatal(err)
		}
		pod.CurrentState.Status = p.status
		if err := registry.UpdatePod(ctx, pod); err != nil {
			t.Fatal(err)
		}
	}
	return rest, minions
}

var wantStatus = map[string]api.PodStatus{
	"waiting": api.PodWaiting,
	"bound":   api.PodWaiting,
	"running": api.PodRunning,
	"orphan":  api.PodTerminated,
}

func TestAListComputesEveryStatusWithOneMinionListPerBoundPod(t *testing.T) {
	rest, minions := newStatusStorage(t)
	before := minions.count()
	obj, err := rest.List(ctx, labels.Everything(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range obj.(*api.PodList).Items {
		if pod.CurrentState.Status != wantStatus[pod.ID] || pod.CurrentState.Host != pod.DesiredState.Host {
			t.Errorf("%s: status %q host %q, want %q host %q", pod.ID, pod.CurrentState.Status, pod.CurrentState.Host, wantStatus[pod.ID], pod.DesiredState.Host)
		}
	}
	if got := minions.count() - before; got != 3 {
		t.Errorf("%d minion lists for 3 bound pods, want 3", got)
	}
}

func TestAGetComputesTheStatusToo(t *testing.T) {
	rest, _ := newStatusStorage(t)
	for id, want := range wantStatus {
		obj, err := rest.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got := obj.(*api.Pod).CurrentState.Status; got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}

func TestDeletingAMinionTerminatesItsPodsOnTheNextRead(t *testing.T) {
	rest, minions := newStatusStorage(t)
	minions.mu.Lock()
	minions.ids = []string{"m2"}
	minions.mu.Unlock()
	obj, err := rest.Get(ctx, "running")
	if err != nil {
		t.Fatal(err)
	}
	if got := obj.(*api.Pod).CurrentState.Status; got != api.PodTerminated {
		t.Errorf("a pod on a deleted minion reads %q, want Terminated", got)
	}
}

func TestAFailedMinionListFailsTheRead(t *testing.T) {
	rest, minions := newStatusStorage(t)
	minions.mu.Lock()
	minions.err = errors.New("connection refused")
	minions.mu.Unlock()
	_, err := rest.List(ctx, labels.Everything(), labels.Everything())
	rt.ExpectCode(t, "list", err, 500)
	_, err = rest.Get(ctx, "running")
	rt.ExpectCode(t, "get", err, 500)
	if _, err := rest.Get(ctx, "waiting"); err != nil {
		t.Errorf("an unbound pod needs no minion list, got %v", err)
	}
}

func TestWithoutAMinionListerPodsAreReadAsStored(t *testing.T) {
	registry := etcd.NewRegistry(rt.NewHelper(t))
	rest := NewREST(registry, nil)
	rt.Create(t, rest, rt.ValidPod("p", "web"))
	if err := registry.ApplyBinding(ctx, &api.Binding{PodID: "p", Host: "gone"}); err != nil {
		t.Fatal(err)
	}
	obj, err := rest.Get(ctx, "p")
	if err != nil {
		t.Fatal(err)
	}
	if got := obj.(*api.Pod).CurrentState.Status; got != api.PodWaiting {
		t.Errorf("status %q, want Waiting as stored", got)
	}
}
