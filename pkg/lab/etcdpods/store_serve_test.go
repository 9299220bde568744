package etcdpods

import (
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// TestAStoreOfOurOwnIsReadAsALearnersMemberIs: a v2 store that the
// laboratory applies writes to itself, served by ServeStore, is listed
// and watched through NewTailReader as a learner is, every change in
// order, a batch of thousands applied at once included.
func TestAStoreOfOurOwnIsReadAsALearnersMemberIs(t *testing.T) {
	t.Run("followed", func(t *testing.T) { readAStoreOfOurOwn(t, false) })
	t.Run("fed", func(t *testing.T) { readAStoreOfOurOwn(t, true) })
}

// readAStoreOfOurOwn serves a store whose tail follows it, or is fed the
// events its owner applies.
func readAStoreOfOurOwn(t *testing.T, fed bool) {
	st := v2store.New(etcdserver.StoreClusterPrefix, etcdserver.StoreKeysPrefix)
	var mu sync.RWMutex
	var srv *StoreServer
	set := func(key, value string) {
		t.Helper()
		e, err := st.Set(etcdserver.StoreKeysPrefix+key, false, value, v2store.TTLOptionSet{ExpireTime: v2store.Permanent})
		if err != nil {
			t.Fatal(err)
		}
		if fed && srv != nil {
			srv.Feed([]*v2store.Event{e})
		}
	}
	set(Prefix+"/a-1", podJSON("a-1", "web"))
	serve := ServeStore
	if fed {
		serve = func(store v2store.Store, mu *sync.RWMutex, port int, health func() error) (*StoreServer, error) {
			return ServeFedStore(store, mu, port, health, nil)
		}
	}
	srv, err := serve(st, &mu, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	src := NewTailReader(srv.URL)
	ctx := api.NewDefaultContext()
	list, err := src.ListPods(ctx, labels.Everything())
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != "a-1" || list.ResourceVersion != st.Index() {
		t.Fatalf("the list: %+v, %v; want a-1 at the store's index %d", list, err, st.Index())
	}
	w, err := src.WatchPods(ctx, labels.Everything(), labels.Everything(), list.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	// A batch far past a v2 watch's window of 1 000 events, applied at
	// once, as a poll of the write-ahead log applies its entries.
	const batch = 3000
	mu.Lock()
	for i := 0; i < batch; i++ {
		set(Prefix+"/b", podJSON("b", "web"))
	}
	set("/registry/controllers/unrelated", "{}")
	e, err := st.Delete(etcdserver.StoreKeysPrefix+Prefix+"/a-1", false, false)
	if err != nil {
		t.Fatal(err)
	}
	if fed {
		srv.Feed([]*v2store.Event{e})
	}
	mu.Unlock()
	for i := 0; i < batch; i++ {
		e := watchtest.Next(t, w)
		want := watch.Modified
		if i == 0 {
			want = watch.Added
		}
		if e.Type != want || e.Object.(*api.Pod).ID != "b" {
			t.Fatalf("event %d: %s %+v, want %s of b", i+1, e.Type, e.Object, want)
		}
	}
	if e := watchtest.Next(t, w); e.Type != watch.Deleted || e.Object.(*api.Pod).ID != "a-1" {
		t.Errorf("the last event: %s %+v, want a-1 deleted", e.Type, e.Object)
	}
}
