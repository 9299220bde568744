package hollownode

import (
	"fmt"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// fakeCluster is a client whose pods and minions live in memory, with
// bindings and updates applied and reported on the watch, as the
// apiserver would.
type fakeCluster struct {
	*client.Fake
	mu      sync.Mutex
	pods    map[string]*api.Pod
	minions []api.Minion
	rv      uint64
	watch   *watch.FakeWatcher
}

func (f *fakeCluster) CreateMinion(m *api.Minion) (*api.Minion, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.minions = append(f.minions, *m)
	return m, nil
}

func (f *fakeCluster) ListMinions() (*api.MinionList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &api.MinionList{Items: append([]api.Minion(nil), f.minions...)}, nil
}

func newFakeCluster(n int) *fakeCluster {
	f := &fakeCluster{Fake: &client.Fake{}, pods: map[string]*api.Pod{}, watch: watch.NewFake()}
	for i := 0; i < n; i++ {
		f.rv++
		id := fmt.Sprintf("pod-%d", i)
		f.pods[id] = &api.Pod{TypeMeta: api.TypeMeta{ID: id, ResourceVersion: f.rv}, CurrentState: api.PodState{Status: api.PodWaiting}}
	}
	return f
}

func (f *fakeCluster) ListPods(ctx api.Context, s labels.Selector) (*api.PodList, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	list := &api.PodList{TypeMeta: api.TypeMeta{ResourceVersion: f.rv}}
	for _, p := range f.pods {
		list.Items = append(list.Items, *p)
	}
	return list, nil
}

func (f *fakeCluster) WatchPods(ctx api.Context, l, fs labels.Selector, rv uint64) (watch.Interface, error) {
	return f.watch, nil
}

func (f *fakeCluster) CreateBinding(ctx api.Context, b *api.Binding) error {
	f.mu.Lock()
	f.rv++
	pod := *f.pods[b.PodID]
	pod.DesiredState.Host = b.Host
	pod.ResourceVersion = f.rv
	f.pods[b.PodID] = &pod
	f.mu.Unlock()
	f.notify(&pod)
	return nil
}

func (f *fakeCluster) UpdatePod(ctx api.Context, p *api.Pod) (*api.Pod, error) {
	f.mu.Lock()
	f.rv++
	pod := *p
	pod.ResourceVersion = f.rv
	f.pods[p.ID] = &pod
	f.mu.Unlock()
	f.notify(&pod)
	return &pod, nil
}

// notify sends the watch a pod's change without holding up the write. A
// change still on its way when the test stops the hollow nodes, and with
// them the watch, is dropped: the send on the closed channel panics.
func (f *fakeCluster) notify(pod *api.Pod) {
	go func() {
		defer func() { _ = recover() }()
		f.watch.Modify(pod)
	}()
}

func (f *fakeCluster) states() (running, hosts map[string]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	running, hosts = map[string]int{}, map[string]int{}
	for _, p := range f.pods {
		running[string(p.CurrentState.Status)]++
		hosts[p.DesiredState.Host]++
	}
	return running, hosts
}

func TestUnscheduledPodsAreBoundSpreadAndStarted(t *testing.T) {
	fake := newFakeCluster(30)
	h := New(fake, Config{Nodes: 3, Workers: 4, Seed: 1})
	stopCh := make(chan struct{})
	defer close(stopCh)
	go h.Run(stopCh)

	var hosts map[string]int
	watchtest.Within(t, watchtest.Timeout, "every pod Running", func() (bool, error) {
		var running map[string]int
		running, hosts = fake.states()
		return running["Running"] == 30, fmt.Errorf("states %v, hosts %v", running, hosts)
	})
	for node, n := range hosts {
		if n != 10 {
			t.Errorf("node %q has %d pods, want 10 each", node, n)
		}
	}
}

// A bound pod starts while every bind writer is held up on a bind: the
// starts have writers of their own, as v0.4's kubelets started what
// reached them whatever its scheduler had left to bind. (One queue for
// both left a start behind every bind queued before it, and in a burst of
// 10 000 no pod ran until nearly all were bound.)
func TestABoundPodStartsWhileTheBindsAreHeldUp(t *testing.T) {
	fake := &stuckBinds{fakeCluster: newFakeCluster(5), release: make(chan struct{})}
	defer close(fake.release)
	fake.pods["pod-0"].DesiredState.Host = "hollow-node-0"
	h := New(fake, Config{Nodes: 1, Workers: 1, Seed: 1})
	stopCh := make(chan struct{})
	defer close(stopCh)
	go h.Run(stopCh)
	watchtest.Within(t, watchtest.Timeout, "the bound pod Running with every bind held up", func() (bool, error) {
		running, hosts := fake.states()
		return running["Running"] == 1, fmt.Errorf("states %v, hosts %v", running, hosts)
	})
}
