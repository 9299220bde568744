//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set_test.go
// as of v1.3x: what the event handlers queue and count, and how a worker
// retries.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
)

func TestAFailedSyncIsRequeuedWithBackoffAndASuccessfulOneForgotten(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	fail := true
	f.rm.syncHandler = func(ctx context.Context, key string) error {
		if fail {
			return errors.New("apiserver said no")
		}
		return nil
	}
	f.rm.queue.Add("default/foo")
	f.rm.processNextWorkItem(context.Background())
	if n := f.rm.queue.NumRequeues("default/foo"); n != 1 {
		t.Fatalf("%d requeues after a failure, want 1", n)
	}
	fail = false
	deadline := time.Now().Add(10 * time.Second)
	for f.rm.queue.Len() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	f.rm.processNextWorkItem(context.Background())
	if n := f.rm.queue.NumRequeues("default/foo"); n != 0 {
		t.Errorf("%d requeues after a success, want 0 (forgotten)", n)
	}
}

func TestPodEventsReachTheRightControllersAndExpectations(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(2)
	other := newRC(1)
	other.Name, other.UID = "other", "other-uid"
	other.Spec.Selector = map[string]string{"name": "elsewhere"}
	f.addRC(t, rc)
	f.addRC(t, other)
	rcKey, _ := KeyFunc(rc)

	drain := func() []string {
		var keys []string
		for f.rm.queue.Len() > 0 {
			k, _ := f.rm.queue.Get()
			f.rm.queue.Done(k)
			keys = append(keys, k)
		}
		return keys
	}

	t.Run("an owned pod's add lowers expectations and wakes its owner", func(t *testing.T) {
		f.rm.expectations.ExpectCreations(rcKey, 1)
		f.rm.addPod(newPod("a", rc))
		if !f.rm.expectations.SatisfiedExpectations(rcKey) {
			t.Error("expectations not lowered")
		}
		if keys := drain(); fmt.Sprint(keys) != "[default/foo]" {
			t.Errorf("queued %v", keys)
		}
	})
	t.Run("an orphan's add wakes matching controllers and leaves expectations alone", func(t *testing.T) {
		f.rm.expectations.ExpectCreations(rcKey, 1)
		f.rm.addPod(newPod("b", nil))
		if f.rm.expectations.SatisfiedExpectations(rcKey) {
			t.Error("an orphan lowered expectations")
		}
		if keys := drain(); fmt.Sprint(keys) != "[default/foo]" {
			t.Errorf("queued %v", keys)
		}
	})
	t.Run("a resync with an unchanged resourceVersion is ignored", func(t *testing.T) {
		p := newPod("c", rc)
		f.rm.updatePod(p, p.DeepCopy())
		if keys := drain(); len(keys) != 0 {
			t.Errorf("queued %v", keys)
		}
	})
	t.Run("a changed ControllerRef wakes the old owner too", func(t *testing.T) {
		old := newPod("d", other)
		cur := newPod("d", rc)
		cur.ResourceVersion = "2"
		f.rm.updatePod(old, cur)
		keys := drain()
		sort.Strings(keys)
		if fmt.Sprint(keys) != "[default/foo default/other]" {
			t.Errorf("queued %v", keys)
		}
	})
	t.Run("a tombstone delete counts against the delete expectations once", func(t *testing.T) {
		p := newPod("e", rc)
		f.rm.expectations.ExpectDeletions(rcKey, []string{PodKey(p)})
		f.rm.deletePod(cache.DeletedFinalStateUnknown{Key: PodKey(p), Obj: p})
		f.rm.deletePod(p)
		if !f.rm.expectations.SatisfiedExpectations(rcKey) {
			t.Error("delete expectations not met")
		}
		exp, _, _ := f.rm.expectations.GetExpectations(rcKey)
		if _, d := exp.GetExpectations(); d != 0 {
			t.Errorf("outstanding deletes %d, want 0: the pod must count once", d)
		}
		drain()
	})
	t.Run("a controller replaced under the same name loses its expectations", func(t *testing.T) {
		f.rm.expectations.ExpectCreations(rcKey, 5)
		newer := rc.DeepCopy()
		newer.UID = "replacement"
		f.rm.updateRC(rc, newer)
		if _, exists, _ := f.rm.expectations.GetExpectations(rcKey); exists {
			t.Error("expectations of the old controller survived")
		}
		drain()
	})
}

// TestAPodUpdateWakesItsOwnerAndSchedulesItForAvailability: a pod
// relabelled away from its controller wakes the controller that owns it,
// which must release it, and an orphan's update wakes the controllers it
// matches; a pod that just became ready wakes its controller again once
// minReadySeconds and a second of clock skew have passed.
func TestAPodUpdateWakesItsOwnerAndSchedulesItForAvailability(t *testing.T) {
	for _, tc := range []struct {
		name     string
		minReady int32
		change   func(old, cur *v1.Pod)
		queued   string
		after    string
	}{
		{name: "an owned pod relabelled away", change: func(_, cur *v1.Pod) { cur.Labels = map[string]string{"name": "bar"} },
			queued: "[default/foo]", after: "[]"},
		{name: "an orphan relabelled to match", change: func(old, cur *v1.Pod) {
			old.OwnerReferences, cur.OwnerReferences = nil, nil
			old.Labels = map[string]string{"name": "bar"}
		}, queued: "[default/foo]", after: "[]"},
		{name: "a pod that just became ready", minReady: 10, change: func(old, _ *v1.Pod) { old.Status.Conditions = nil },
			queued: "[default/foo]", after: "[default/foo in 11s]"},
		{name: "a pod that just became ready, without minReadySeconds", change: func(old, _ *v1.Pod) { old.Status.Conditions = nil },
			queued: "[default/foo]", after: "[]"},
		{name: "a pod ready before and after", minReady: 10, change: func(_, _ *v1.Pod) {},
			queued: "[default/foo]", after: "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, &client.Fake{}, BurstReplicas)
			q := &afterQueue{TypedRateLimitingInterface: f.rm.queue}
			f.rm.queue = q
			rc := newRC(1)
			rc.Spec.MinReadySeconds = tc.minReady
			f.addRC(t, rc)
			old, cur := newPod("a", rc), newPod("a", rc)
			cur.ResourceVersion = "2"
			tc.change(old, cur)
			f.rm.updatePod(old, cur)
			var keys []string
			for q.Len() > 0 {
				k, _ := q.Get()
				q.Done(k)
				keys = append(keys, k)
			}
			if fmt.Sprint(keys) != tc.queued || fmt.Sprint(q.after) != tc.after {
				t.Errorf("queued %v and scheduled %v, want %s and %s", keys, q.after, tc.queued, tc.after)
			}
		})
	}
}
