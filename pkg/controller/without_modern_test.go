//go:build modern

package controller

// One test per switch of ReplicationManager.Without: each shows the
// behaviour the switch restores, beside today's (pkg/history names the
// changes).

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func countActions(c *client.Fake, action string) int {
	n := 0
	for _, a := range c.Actions() {
		if a.Action == action {
			n++
		}
	}
	return n
}

// Without expectations, a sync that runs before the informer has seen the
// pods of the last one creates them again (history: expectations).
func TestWithoutExpectationsASyncBeforeThePodsAreSeenCreatesThemAgain(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t, &client.Fake{}, BurstReplicas)
		f.rm.Without.Expectations = off
		rc := newRC(2)
		f.addRC(t, rc)
		for i := 0; i < 2; i++ {
			if err := f.sync(t, rc); err != nil {
				t.Fatal(err)
			}
		}
		want := 2
		if off {
			want = 4
		}
		if n := len(f.podControl.Templates); n != want {
			t.Errorf("without expectations %v: %d creates in two syncs, want %d", off, n, want)
		}
	}
}

// Without slow start, a controller whose creates are refused sends every
// one of them (history: slow-start).
func TestWithoutSlowStartARefusedControllerSendsEveryCreate(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t, &client.Fake{}, BurstReplicas)
		f.rm.Without.SlowStart = off
		f.podControl.CreateLimit = -1
		f.podControl.Err = errors.New("forbidden: quota exceeded")
		rc := newRC(20)
		f.addRC(t, rc)
		if err := f.sync(t, rc); err == nil {
			t.Fatal("sync succeeded although every create failed")
		}
		want := 1
		if off {
			want = 20
		}
		if calls := f.podControl.CreateCallCount; calls != want {
			t.Errorf("without slow start %v: %d create calls, want %d", off, calls, want)
		}
	}
}

// Without ranking, the surplus is deleted in list order, running and
// ready pods included (history: ranked-deletion). The pods come from the
// apiserver here (no pod informer) so that the list order is known.
func TestWithoutRankingTheFirstPodsOfTheListAreDeleted(t *testing.T) {
	fake := &client.Fake{}
	f := newFixture(t, fake, BurstReplicas)
	f.rm.Without = Without{PodInformer: true, ControllerRef: true, RankedDeletion: true}
	rc := newRC(2)
	f.addRC(t, rc)
	for _, name := range []string{"ready-1", "ready-2", "not-ready", "pending", "unscheduled"} {
		pod := api.Pod{TypeMeta: api.TypeMeta{ID: name, Namespace: api.NamespaceDefault}, Labels: map[string]string{"name": "foo"}}
		pod.CurrentState.Status = api.PodRunning
		if name == "pending" || name == "unscheduled" {
			pod.CurrentState.Status = api.PodWaiting
		}
		fake.Pods.Items = append(fake.Pods.Items, pod)
	}
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if got := f.podControl.DeletePodName; !sameSet(got, "ready-1", "ready-2", "not-ready") {
		t.Errorf("deleted %v, want the first three of the list", got)
	}
}

func sameSet(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	m := map[string]bool{}
	for _, g := range got {
		m[g] = true
	}
	for _, w := range want {
		if !m[w] {
			return false
		}
	}
	return true
}

// Without the pod informer, every sync LISTs pods from the apiserver
// (history: pod-informer).
func TestWithoutThePodInformerEverySyncListsPods(t *testing.T) {
	for _, off := range []bool{false, true} {
		fake := &client.Fake{}
		f := newFixture(t, fake, BurstReplicas)
		f.rm.Without.PodInformer = off
		rc := newRC(0)
		f.addRC(t, rc)
		for i := 0; i < 3; i++ {
			if err := f.sync(t, rc); err != nil {
				t.Fatal(err)
			}
		}
		want := 0
		if off {
			want = 3
		}
		if n := countActions(fake, "list-pods"); n != want {
			t.Errorf("without the pod informer %v: %d pod LISTs in three syncs, want %d", off, n, want)
		}
	}
}

// Without status writes, the manager never writes the controller; the
// apiserver fills its replicas on read, as v0.4's did (history:
// status-writes).
func TestWithoutStatusWritesTheManagerWritesNoStatus(t *testing.T) {
	for _, off := range []bool{false, true} {
		fake := &client.Fake{}
		f := newFixture(t, fake, BurstReplicas)
		f.rm.Without.StatusWrites = off
		rc := newRC(2)
		f.addRC(t, rc)
		f.addPods(t, newPods(2, rc)...)
		if err := f.sync(t, rc); err != nil {
			t.Fatal(err)
		}
		want := 1
		if off {
			want = 0
		}
		if n := len(f.statusWrites()); n != want {
			t.Errorf("without status writes %v: %d status writes, want %d", off, n, want)
		}
	}
}

// Without ControllerRef, a controller counts every pod its selector
// matches, another controller's too, and adopts nothing (history:
// controller-ref).
func TestWithoutControllerRefAControllerCountsAnotherOnesPods(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t, &client.Fake{}, BurstReplicas)
		f.rm.Without.ControllerRef = off
		rc := newRC(2)
		f.addRC(t, rc)
		foreign := newPod("foreign", nil)
		isController := true
		foreign.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicationController", Name: "other", UID: "other-uid", Controller: &isController}}
		f.addPods(t, newPod("mine", rc), foreign, newPod("orphan", nil))
		if err := f.sync(t, rc); err != nil {
			t.Fatal(err)
		}
		// Today: mine plus the adopted orphan make 2, nothing to do. Without:
		// all three match, one is deleted, nothing is adopted.
		wantUpdates, wantDeletes := 1, 0
		if off {
			wantUpdates, wantDeletes = 0, 1
		}
		if u, d := len(f.podControl.Updates), len(f.podControl.DeletePodName); u != wantUpdates || d != wantDeletes {
			t.Errorf("without ControllerRef %v: %d adoptions and %d deletes, want %d and %d", off, u, d, wantUpdates, wantDeletes)
		}
	}
}

// Without rate-limited requeue, a failed key is back on the queue at once,
// with no backoff counted (history: rate-limited-requeue).
func TestWithoutRateLimitedRequeueAFailedKeyComesBackAtOnce(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t, &client.Fake{}, BurstReplicas)
		f.rm.Without.RateLimitedRequeue = off
		f.rm.syncHandler = func(ctx context.Context, key string) error { return errors.New("refused") }
		f.rm.queue.Add("default/foo")
		f.rm.processNextWorkItem(context.Background())
		requeues, waiting := f.rm.queue.NumRequeues("default/foo"), f.rm.queue.Len()
		if off && (requeues != 0 || waiting != 1) {
			t.Errorf("without backoff: %d requeues counted and %d keys waiting, want 0 and the key back at once", requeues, waiting)
		}
		if !off && requeues != 1 {
			t.Errorf("with backoff: %d requeues counted, want 1", requeues)
		}
	}
}

// Without waiting for the caches, workers sync before the pod cache is
// filled (history: wait-for-caches).
func TestWithoutWaitForCachesWorkersSyncBeforeTheCacheIsFull(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t, &client.Fake{}, BurstReplicas)
		f.rm.Without.WaitForCaches = off
		f.rm.podListerSynced = func() bool { return false }
		var synced atomic.Int32
		f.rm.syncHandler = func(ctx context.Context, key string) error { synced.Add(1); return nil }
		f.rm.queue.Add("default/foo")
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { f.rm.Run(ctx, 1); close(done) }()
		if off {
			deadline := time.Now().Add(30 * time.Second)
			for synced.Load() == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		} else {
			time.Sleep(300 * time.Millisecond)
		}
		cancel()
		<-done
		if got := synced.Load() > 0; got != off {
			t.Errorf("without waiting for caches %v: synced before the pod cache was full: %v", off, got)
		}
	}
}

// Without ControllerRef, every controller whose selector matches a pod
// hears of it, and one that deleted another's pod sees its delete arrive
// (history: controller-ref).
func TestWithoutControllerRefEveryMatchingControllerHearsOfAPod(t *testing.T) {
	for _, off := range []bool{false, true} {
		f := newFixture(t, &client.Fake{}, BurstReplicas)
		f.rm.Without.ControllerRef = off
		a := newRC(1)
		b := newRC(1)
		b.Name, b.UID = "bar", "bar-uid"
		f.addRC(t, a)
		f.addRC(t, b)
		pod := newPod("of-b", b)
		aKey, _ := KeyFunc(a)
		f.rm.expectations.ExpectDeletions(aKey, []string{PodKey(pod)})
		f.rm.addPod(pod)
		f.rm.deletePod(pod)
		woken := map[string]bool{}
		for f.rm.queue.Len() > 0 {
			key, _ := f.rm.queue.Get()
			woken[key] = true
			f.rm.queue.Done(key)
		}
		if woken[aKey] != off {
			t.Errorf("without ControllerRef %v: controller a woken by b's pod: %v", off, woken[aKey])
		}
		if got := f.rm.expectations.SatisfiedExpectations(aKey); got != off {
			t.Errorf("without ControllerRef %v: a's expected delete of b's pod observed: %v", off, got)
		}
	}
}
