package hollownode

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// stuckBinds is a fake cluster whose bindings wait until release closes,
// as on an apiserver that has stopped answering writes.
type stuckBinds struct {
	*fakeCluster
	release chan struct{}
}

func (s *stuckBinds) CreateBinding(ctx api.Context, b *api.Binding) error {
	<-s.release
	return s.fakeCluster.CreateBinding(ctx, b)
}

// The pod watch goes on being read while every worker waits for a write:
// the events wait in the hollow nodes, not in the apiserver.
func TestThePodWatchIsReadWhileEveryWorkerWaits(t *testing.T) {
	t.Parallel()
	fake := &stuckBinds{fakeCluster: newFakeCluster(0), release: make(chan struct{})}
	h := New(fake, Config{Nodes: 2, Workers: 2, Seed: 1})
	stopCh := make(chan struct{})
	defer close(stopCh)
	go h.Run(stopCh)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for i := 0; i < 2000; i++ {
			pod := &api.Pod{TypeMeta: api.TypeMeta{ID: fmt.Sprintf("new-%d", i), ResourceVersion: uint64(100 + i)}}
			fake.mu.Lock()
			fake.pods[pod.ID] = pod
			fake.mu.Unlock()
			fake.watch.Add(pod)
		}
	}()
	select {
	case <-sent:
	case <-time.After(30 * time.Second):
		t.Fatal("the watch stopped being read while the workers waited for their binds")
	}
	watchtest.Eventually(t, "2000 pods known and queued", func() bool {
		s := h.State()
		return s.Pods == 2000 && s.Queued+2 >= 2000
	})
	close(fake.release)
	watchtest.Eventually(t, "every pod bound", func() bool { return h.Stats().Binds == 2000 })
}

// flakyBinds fails the first two bindings: not found, then a 500.
type flakyBinds struct {
	*fakeCluster
	fails   int64
	callsMu sync.Mutex
	calls   map[string]int
}

func (f *flakyBinds) CreateBinding(ctx api.Context, b *api.Binding) error {
	f.callsMu.Lock()
	f.calls[b.PodID]++
	f.callsMu.Unlock()
	switch atomic.AddInt64(&f.fails, -1) {
	case 1:
		// Read from etcd, the hollow nodes can see a pod before the
		// member the apiserver reads has it.
		return apierrors.NewNotFound("pod", b.PodID)
	case 0:
		return apierrors.NewInternalError(fmt.Errorf("etcd is away"))
	}
	return f.fakeCluster.CreateBinding(ctx, b)
}

// A binding that failed (the apiserver or etcd away, the pod not yet on the
// apiserver's etcd member) is tried again, and
// one that succeeded is not repeated when a list older than it brings the
// pod back unscheduled.
func TestAFailedBindIsRetriedAndADoneOneIsNotRepeated(t *testing.T) {
	t.Parallel()
	fake := &flakyBinds{fakeCluster: newFakeCluster(0), fails: 2, calls: map[string]int{}}
	h := New(fake, Config{Nodes: 2, Workers: 2, Seed: 1})
	stopCh := make(chan struct{})
	defer close(stopCh)
	go h.Run(stopCh)
	pod := &api.Pod{TypeMeta: api.TypeMeta{ID: "p", ResourceVersion: 5}}
	fake.mu.Lock()
	fake.pods["p"] = pod
	fake.mu.Unlock()
	fake.watch.Add(pod)
	watchtest.Eventually(t, "the pod bound after two failures", func() bool { return h.Stats().Binds == 1 })
	// The watch has not brought the binding yet (the fake sends it from a
	// goroutine the test races), and a stale copy arrives: no second bind.
	h.observe(pod)
	time.Sleep(100 * time.Millisecond)
	fake.callsMu.Lock()
	calls := fake.calls["p"]
	fake.callsMu.Unlock()
	if calls != 3 {
		t.Errorf("%d bindings sent for one pod, want 2 failed and 1 done", calls)
	}
}

// The hollow nodes' watch lag counts the etcd indexes between their own
// last write and the last event their watch brought.
func TestTheWatchLagCountsIndexesBetweenOurWritesAndTheWatch(t *testing.T) {
	var l watchLag
	l.saw(10)
	l.wrote(15)
	if l.now() != 5 || l.max.Load() != 5 {
		t.Errorf("lag %d (max %d), want 5", l.now(), l.max.Load())
	}
	l.saw(20)
	if l.now() != 0 || l.max.Load() != 5 {
		t.Errorf("lag %d (max %d) once the watch passed the write, want 0 (max 5)", l.now(), l.max.Load())
	}
}
