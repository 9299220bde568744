package minion

// Follows kubernetes/kubernetes pkg/registry/minion/caching_registry.go as
// of v0.4 (October 2014): the master served minions from a copy of the list
// refreshed when it was older than -minion_cache_ttl (30 s), and at once
// after a create or a delete through it.

import (
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// CachingRegistry answers ListMinions and GetMinion from a copy of the
// delegate's list that is at most ttl old.
//
// In v0.4 this cache is what made the pod read path affordable: every GET
// and LIST of pods listed the minions once per bound pod, and the cache
// answered each of those from memory. A minion deleted behind the cache's
// back (straight in etcd, or by another apiserver) stays listed until the
// copy expires.
type CachingRegistry struct {
	delegate Registry
	ttl      time.Duration
	now      func() time.Time

	mu      sync.Mutex
	minions *api.MinionList
	updated time.Time
}

// NewCachingRegistry returns delegate behind a cache of ttl.
//
// Ours: v0.4 filled the cache here and fell back to the bare registry if
// that first list failed; this one fills it on first use, so an apiserver
// whose etcd is not up yet still starts with its cache.
func NewCachingRegistry(delegate Registry, ttl time.Duration) *CachingRegistry {
	return &CachingRegistry{delegate: delegate, ttl: ttl, now: time.Now}
}

var _ Registry = &CachingRegistry{}

// ListMinions returns the cached list, refreshed first if it has expired.
// The list is shared: callers must not change it.
func (r *CachingRegistry) ListMinions(ctx api.Context) (*api.MinionList, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.minions == nil || r.now().Sub(r.updated) > r.ttl {
		if err := r.refreshLocked(ctx); err != nil {
			return nil, err
		}
	}
	return r.minions, nil
}

// GetMinion looks the minion up in the cached list.
func (r *CachingRegistry) GetMinion(ctx api.Context, id string) (*api.Minion, error) {
	list, err := r.ListMinions(ctx)
	if err != nil {
		return nil, err
	}
	for i := range list.Items {
		if list.Items[i].ID == id {
			minion := list.Items[i]
			return &minion, nil
		}
	}
	return nil, apierrors.NewNotFound("minion", id)
}

// CreateMinion creates through the delegate and refreshes the cache.
func (r *CachingRegistry) CreateMinion(ctx api.Context, minion *api.Minion) error {
	if err := r.delegate.CreateMinion(ctx, minion); err != nil {
		return err
	}
	r.refreshAfterWrite(ctx)
	return nil
}

// DeleteMinion deletes through the delegate and refreshes the cache.
func (r *CachingRegistry) DeleteMinion(ctx api.Context, id string) error {
	if err := r.delegate.DeleteMinion(ctx, id); err != nil {
		return err
	}
	r.refreshAfterWrite(ctx)
	return nil
}

// refreshAfterWrite reads the list again after a write.
//
// Ours: v0.4 returned a failed refresh as the write's error, though the
// write had been made; here the cache is dropped instead, so the next read
// lists again, and the write reports its own outcome.
func (r *CachingRegistry) refreshAfterWrite(ctx api.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.refreshLocked(ctx); err != nil {
		r.minions = nil
	}
}

func (r *CachingRegistry) refreshLocked(ctx api.Context) error {
	list, err := r.delegate.ListMinions(ctx)
	if err != nil {
		return err
	}
	r.minions = list
	r.updated = r.now()
	return nil
}
