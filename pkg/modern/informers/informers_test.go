package informers

import (
	"fmt"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	apilabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// podSource is a client whose pod lists and watches a test drives: every
// list answers the current pods at listRV, every watch call gets a fresh
// FakeWatcher, and both are recorded.
type podSource struct {
	*client.Fake

	mu       sync.Mutex
	pods     []api.Pod
	listRV   uint64
	lists    int
	watchRVs []uint64
	watchers []*watch.FakeWatcher
	watchErr error
}

func (s *podSource) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
	out := &api.PodList{Items: append([]api.Pod{}, s.pods...)}
	out.ResourceVersion = s.listRV
	return out, nil
}

func (s *podSource) WatchPods(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchRVs = append(s.watchRVs, rv)
	if err := s.watchErr; err != nil {
		s.watchErr = nil
		return nil, err
	}
	w := watch.NewFake()
	s.watchers = append(s.watchers, w)
	return w, nil
}

func (s *podSource) latestWatcher() *watch.FakeWatcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.watchers) == 0 {
		return nil
	}
	return s.watchers[len(s.watchers)-1]
}

func (s *podSource) counts() (lists, watches int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists, len(s.watchRVs)
}

func pod(id string, rv uint64) *api.Pod {
	return &api.Pod{
		TypeMeta: api.TypeMeta{ID: id, Namespace: "default", ResourceVersion: rv},
		Labels:   map[string]string{"name": "nginx"},
	}
}

func startPods(t *testing.T, src *podSource) (*SharedInformerFactory, func()) {
	f := NewSharedInformerFactory(src, 0)
	f.Pods().Informer()
	stopCh := make(chan struct{})
	f.Start(stopCh)
	stop := func() {
		close(stopCh)
		f.Shutdown()
	}
	if synced := f.WaitForCacheSync(stopCh); !synced["pods"] {
		stop()
		t.Fatalf("pod informer did not sync: %v", synced)
	}
	return f, stop
}

func TestAPodInformerListsThenWatchesFromTheListsResourceVersion(t *testing.T) {
	src := &podSource{Fake: &client.Fake{}, pods: []api.Pod{*pod("a", 5)}, listRV: 7}
	f, stop := startPods(t, src)
	defer stop()
	watchtest.Eventually(t, "a watch", func() bool { return src.latestWatcher() != nil })
	if src.watchRVs[0] != 7 {
		t.Errorf("watch started at %d, want the list's 7", src.watchRVs[0])
	}
	lister := f.Pods().Lister()
	if got, err := lister.Pods("default").Get("a"); err != nil || got.ResourceVersion != "5" {
		t.Fatalf("listed pod a: %v, %v", got, err)
	}

	w := src.latestWatcher()
	w.Add(pod("b", 8))
	w.Modify(pod("a", 9))
	w.Delete(pod("b", 10))
	watchtest.Eventually(t, "the watch events in the cache", func() bool {
		pods, _ := lister.List(apilabels.Everything())
		a, err := lister.Pods("default").Get("a")
		return len(pods) == 1 && err == nil && a.ResourceVersion == "9"
	})
}

func TestAGoneErrorInTheStreamMakesTheInformerListAgain(t *testing.T) {
	src := &podSource{Fake: &client.Fake{}, pods: []api.Pod{*pod("a", 5)}, listRV: 7}
	f, stop := startPods(t, src)
	defer stop()
	watchtest.Eventually(t, "a watch", func() bool { return src.latestWatcher() != nil })

	src.mu.Lock()
	src.pods = []api.Pod{*pod("c", 20)}
	src.listRV = 21
	src.mu.Unlock()
	gone := apierrors.NewGone("too old resource version: 7").(*apierrors.StatusError).ErrStatus
	src.latestWatcher().Error(&gone)

	watchtest.Eventually(t, "a second list", func() bool { lists, _ := src.counts(); return lists >= 2 })
	watchtest.Eventually(t, "the relisted state", func() bool {
		_, errA := f.Pods().Lister().Pods("default").Get("a")
		_, errC := f.Pods().Lister().Pods("default").Get("c")
		return errA != nil && errC == nil
	})
}

func TestARefusedWatchWithGoneMakesTheInformerListAgain(t *testing.T) {
	src := &podSource{Fake: &client.Fake{}, listRV: 3, watchErr: apierrors.NewGone("too old")}
	_, stop := startPods(t, src)
	defer stop()
	watchtest.Eventually(t, "a relist after the refused watch", func() bool {
		lists, watches := src.counts()
		return lists >= 2 && watches >= 2
	})
}

func TestTheFactorySharesOneInformerPerResource(t *testing.T) {
	f := NewSharedInformerFactory(&client.Fake{}, 0)
	if f.Pods().Informer() != f.Pods().Informer() {
		t.Error("two pod informers")
	}
	if cache.SharedIndexInformer(f.Services().Informer()) == cache.SharedIndexInformer(f.Endpoints().Informer()) {
		t.Error("services and endpoints share an informer")
	}
	if fmt.Sprint(f.ReplicationControllers().Informer().GetIndexer().GetIndexers()[cache.NamespaceIndex] == nil) != "false" {
		t.Error("controller cache has no namespace index")
	}
}
