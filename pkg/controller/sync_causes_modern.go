//go:build modern

package controller

// Ours: upstream's workqueue holds keys only, so a sync does not know what
// started it. The manager notes, beside the queue, why each key was
// queued, and counts its syncs and the pods they create by that cause
// (metrics.go, metrics_modern.go): a test or a benchmark can then tell a
// pod created because an informer reported a change from one created on
// a retry or a resync, however long either took on a busy machine. The
// queue itself is upstream's, unchanged: a key waiting is still held once,
// whatever the causes.

import (
	"context"
	"sync"
	"time"
)

// syncCauses are why today's manager syncs a controller.
var syncCauses = []string{SyncController, SyncPod, SyncResync, SyncRetry, SyncLater}

// syncUnknown labels a sync of a key queued without a cause (only tests
// queue keys by hand).
const syncUnknown = "unknown"

// causeBook remembers why each controller's key was queued.
type causeBook struct {
	mu sync.Mutex
	// pending is the cause of the sync each key waits for; deferred, a
	// retry or a later sync asked for meanwhile, whose delayed add will
	// start a sync of its own; last, the cause the key's last sync took.
	pending, deferred, last map[string]string
}

func newCauseBook() *causeBook {
	return &causeBook{pending: map[string]string{}, deferred: map[string]string{}, last: map[string]string{}}
}

// delayed says whether cause queues its key only after a delay.
func delayed(cause string) bool { return cause == SyncRetry || cause == SyncLater }

// note records cause for key. The next sync is put down to the first
// cause that queued the key at once, or, failing one, to the first
// delayed one: a pod event that arrives while a retry waits out its
// backoff starts the sync now, and the retry's own sync comes later.
func (b *causeBook) note(key, cause string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	waiting, ok := b.pending[key]
	switch {
	case !ok:
		b.pending[key] = cause
	case delayed(cause):
		if _, ok := b.deferred[key]; !ok {
			b.deferred[key] = cause
		}
	case delayed(waiting):
		if _, ok := b.deferred[key]; !ok {
			b.deferred[key] = waiting
		}
		b.pending[key] = cause
	}
}

// take returns the cause of the sync of key that is beginning, and
// forgets it. A key queued again in the instant between the queue handing
// it out and this call is put down to the sync that is beginning; the
// queue hands the key out once more, and that sync, with no cause left, is
// counted under the one before.
func (b *causeBook) take(key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	cause, ok := b.pending[key]
	if ok {
		delete(b.pending, key)
	} else if cause, ok = b.deferred[key]; ok {
		delete(b.deferred, key)
	} else if cause, ok = b.last[key]; !ok {
		return syncUnknown
	}
	b.last[key] = cause
	return cause
}

// forget drops what is known of key, whose controller is gone.
func (b *causeBook) forget(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.pending, key)
	delete(b.deferred, key)
	delete(b.last, key)
}

// add queues key for a sync, noting why.
func (rm *ReplicationManager) add(key, cause string) {
	rm.causes.note(key, cause)
	rm.queue.Add(key)
}

// addAfter queues key for a sync after d, noting why.
func (rm *ReplicationManager) addAfter(key, cause string, d time.Duration) {
	rm.causes.note(key, cause)
	rm.queue.AddAfter(key, d)
}

// addRateLimited puts back the key of a failed sync after its backoff.
func (rm *ReplicationManager) addRateLimited(key string) {
	rm.causes.note(key, SyncRetry)
	rm.queue.AddRateLimited(key)
}

// syncCauseKey carries a sync's cause in its context, down to the creates.
type syncCauseKey struct{}

func withSyncCause(ctx context.Context, cause string) context.Context {
	return context.WithValue(ctx, syncCauseKey{}, cause)
}

// syncCauseOf returns the cause of the sync ctx belongs to.
func syncCauseOf(ctx context.Context) string {
	if cause, ok := ctx.Value(syncCauseKey{}).(string); ok {
		return cause
	}
	return syncUnknown
}
