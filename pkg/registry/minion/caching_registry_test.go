package minion

import (
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

func ids(t *testing.T, r Registry) []string {
	t.Helper()
	list, err := r.ListMinions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range list.Items {
		out = append(out, m.ID)
	}
	return out
}

func TestTheCacheShowsWritesThroughItAtOnceAndOthersWhenItExpires(t *testing.T) {
	store := etcd.NewRegistry(rt.NewHelper(t))
	cache := NewCachingRegistry(store, 30*time.Second)
	now := time.Unix(1000, 0)
	cache.now = func() time.Time { return now }

	if err := cache.CreateMinion(ctx, minion("a")); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, cache); len(got) != 1 || got[0] != "a" {
		t.Fatalf("after a create through the cache: %v", got)
	}
	// Written behind the cache's back: not seen until the copy expires.
	if err := store.CreateMinion(ctx, minion("b")); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, cache); len(got) != 1 {
		t.Errorf("within the ttl: %v, want the cached [a]", got)
	}
	if _, err := cache.GetMinion(ctx, "b"); err == nil {
		t.Errorf("b found before the cache expired")
	}
	now = now.Add(31 * time.Second)
	if got := ids(t, cache); len(got) != 2 {
		t.Errorf("after the ttl: %v, want [a b]", got)
	}
	if err := cache.DeleteMinion(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, cache); len(got) != 1 || got[0] != "b" {
		t.Errorf("after a delete through the cache: %v", got)
	}
	_, err := cache.GetMinion(ctx, "a")
	rt.ExpectCode(t, "get a deleted minion", err, 404)
	if m, err := cache.GetMinion(ctx, "b"); err != nil || m.ID != "b" {
		t.Errorf("get b: %+v, %v", m, err)
	}
}
