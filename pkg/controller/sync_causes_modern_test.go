//go:build modern

package controller

// Ours: why each sync ran, and the creates counted by it
// (sync_causes_modern.go); upstream counts neither.

import (
	"context"
	"errors"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/client"
)

func TestASyncIsPutDownToWhatQueuedItsKeyAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		notes []string
		// takes are the causes of the syncs that follow, in order.
		takes []string
	}{
		{"one event", []string{SyncPod}, []string{SyncPod}},
		{"the first of two events", []string{SyncController, SyncPod}, []string{SyncController}},
		{"a retry alone", []string{SyncRetry}, []string{SyncRetry}},
		// The pod event queues the key at once; the retry's own sync
		// comes when its backoff is over.
		{"an event during a retry's backoff", []string{SyncRetry, SyncPod}, []string{SyncPod, SyncRetry}},
		{"a retry asked for while an event waits", []string{SyncPod, SyncRetry}, []string{SyncPod, SyncRetry}},
		// Queued again just as its sync began: the next sync has no cause
		// of its own left and counts as the one before.
		{"nothing left", []string{SyncController}, []string{SyncController, SyncController}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newCauseBook()
			for _, c := range tc.notes {
				b.note("default/foo", c)
			}
			for i, want := range tc.takes {
				if got := b.take("default/foo"); got != want {
					t.Errorf("sync %d put down to %q, want %q", i+1, got, want)
				}
			}
		})
	}
	if got := newCauseBook().take("default/foo"); got != syncUnknown {
		t.Errorf("a key queued by hand is put down to %q, want %q", got, syncUnknown)
	}
}

func TestAPodDeletedIsReplacedByASyncCountedAsAPodEvent(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	f.rm.podControl = RealPodControl{KubeClient: f.client}
	rc := newRC(2)
	f.addRC(t, rc)
	pods := newPods(2, rc)
	f.addPods(t, pods[0])
	syncsBefore, createsBefore := counterValue(syncs.WithLabelValues(SyncPod)), counterValue(syncCreates.WithLabelValues(SyncPod))
	// The informer drops the pod from its cache, then tells the manager.
	f.rm.deletePod(pods[1])
	f.rm.processNextWorkItem(context.Background())
	if n := counterValue(syncs.WithLabelValues(SyncPod)) - syncsBefore; n != 1 {
		t.Errorf("%v syncs counted as pod events, want 1", n)
	}
	if n := counterValue(syncCreates.WithLabelValues(SyncPod)) - createsBefore; n != 1 {
		t.Errorf("%v creates counted as the pod event's, want 1", n)
	}
}

func TestAFailedSyncComesBackAsARetryAndAnUnchangedControllerAsAResync(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(1)
	f.addRC(t, rc)
	var causes []string
	f.rm.syncHandler = func(ctx context.Context, key string) error {
		causes = append(causes, syncCauseOf(ctx))
		if len(causes) == 1 {
			return errors.New("apiserver said no")
		}
		return nil
	}
	f.rm.updateRC(rc, rc)
	f.rm.processNextWorkItem(context.Background())
	// The retry waits out its backoff (5 ms) in the queue.
	f.rm.processNextWorkItem(context.Background())
	if len(causes) != 2 || causes[0] != SyncResync || causes[1] != SyncRetry {
		t.Errorf("the syncs ran for %v, want [resync retry]", causes)
	}
}
