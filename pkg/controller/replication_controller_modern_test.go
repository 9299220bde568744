//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set_test.go
// as of v1.3x: syncs run on informer caches loaded by hand (no informer is
// started), with a recording FakePodControl and our recording client.Fake.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/informers"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
)

func alwaysReady() bool { return true }

// anHourAgo is when test pods were created and became ready: one instant,
// so that only what a test changes tells pods apart.
var anHourAgo = metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))

func newRC(replicas int32) *v1.ReplicationController {
	return &v1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{
			Name: "foo", Namespace: api.NamespaceDefault, UID: "rc-uid", ResourceVersion: "18",
		},
		Spec: v1.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: map[string]string{"name": "foo"},
			Template: &v1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"name": "foo", "type": "production"}},
				Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "foo", Image: "foo/bar"}}},
			},
		},
	}
}

// newPod returns a running, ready, scheduled pod of rc (an orphan when rc
// is nil) labelled name=foo.
func newPod(name string, rc *v1.ReplicationController) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: api.NamespaceDefault, UID: types.UID(name + "-uid"), ResourceVersion: "1",
			Labels:            map[string]string{"name": "foo", "type": "production"},
			CreationTimestamp: anHourAgo,
		},
		Spec: v1.PodSpec{NodeName: "node-1"},
		Status: v1.PodStatus{
			Phase:      v1.PodRunning,
			Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: anHourAgo}},
		},
	}
	if rc != nil {
		pod.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(rc, controllerKind)}
	}
	return pod
}

func newPods(n int, rc *v1.ReplicationController) []*v1.Pod {
	var pods []*v1.Pod
	for i := 0; i < n; i++ {
		pods = append(pods, newPod(fmt.Sprintf("pod%d", i), rc))
	}
	return pods
}

type fixture struct {
	rm         *ReplicationManager
	podControl *FakePodControl
	client     *client.Fake
	factory    *informers.SharedInformerFactory
}

func newFixture(t *testing.T, c client.Interface, burst int) *fixture {
	t.Helper()
	fake, _ := c.(*client.Fake)
	if sc, ok := c.(*statusClient); ok {
		fake = sc.Fake
	}
	f := informers.NewSharedInformerFactory(c, 0)
	rm := NewReplicationManager(f.Pods(), f.ReplicationControllers(), c, burst)
	rm.podListerSynced = alwaysReady
	rm.rcListerSynced = alwaysReady
	fpc := &FakePodControl{}
	rm.podControl = fpc
	t.Cleanup(rm.queue.ShutDown)
	return &fixture{rm: rm, podControl: fpc, client: fake, factory: f}
}

func (f *fixture) addRC(t *testing.T, rc *v1.ReplicationController) {
	t.Helper()
	if err := f.factory.ReplicationControllers().Informer().GetIndexer().Add(rc); err != nil {
		t.Fatal(err)
	}
	// canAdopt reads the controller from the apiserver.
	f.client.Ctrl = *conversion.ReplicationControllerFromV1(rc)
}

func (f *fixture) addPods(t *testing.T, pods ...*v1.Pod) {
	t.Helper()
	for _, p := range pods {
		if err := f.factory.Pods().Informer().GetIndexer().Add(p); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *fixture) sync(t *testing.T, rc *v1.ReplicationController) error {
	t.Helper()
	key, err := KeyFunc(rc)
	if err != nil {
		t.Fatal(err)
	}
	return f.rm.syncReplicationController(context.Background(), key)
}

func (f *fixture) statusWrites() []*api.ReplicationController {
	var out []*api.ReplicationController
	for _, a := range f.client.Actions() {
		if a.Action == "update-controller" {
			out = append(out, a.Value.(*api.ReplicationController))
		}
	}
	return out
}

func TestSyncWithTooFewPodsCreatesTheMissingOnesWithAControllerRef(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(3)
	f.addRC(t, rc)
	f.addPods(t, newPod("pod0", rc))
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if len(f.podControl.Templates) != 2 {
		t.Fatalf("%d creates, want 2", len(f.podControl.Templates))
	}
	for _, ref := range f.podControl.ControllerRefs {
		if ref.UID != rc.UID || ref.Kind != "ReplicationController" || !*ref.Controller || !*ref.BlockOwnerDeletion {
			t.Errorf("created pod carries ControllerRef %+v", ref)
		}
	}
}

func TestExpectationsStopASecondCreateWaveUntilThePodsAreObserved(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(2)
	f.addRC(t, rc)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.Templates); n != 2 {
		t.Fatalf("first sync: %d creates, want 2", n)
	}

	// The cache has not seen the new pods yet. 2014 would create two more.
	f.podControl.Clear()
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.Templates); n != 0 {
		t.Fatalf("second sync before the pods were observed: %d creates, want 0", n)
	}

	// The informer delivers one pod: still waiting for the other.
	rcKey, _ := KeyFunc(rc)
	pods := newPods(2, rc)
	f.addPods(t, pods[0])
	f.rm.addPod(pods[0])
	if f.rm.expectations.SatisfiedExpectations(rcKey) {
		t.Fatal("expectations met after one of two creates was observed")
	}
	f.addPods(t, pods[1])
	f.rm.addPod(pods[1])
	if !f.rm.expectations.SatisfiedExpectations(rcKey) {
		t.Fatal("expectations unmet after both creates were observed")
	}
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.Templates); n != 0 {
		t.Fatalf("sync with both pods present: %d creates, want 0", n)
	}
}

func TestOneSyncCreatesAtMostBurstReplicas(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(1000)
	f.addRC(t, rc)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.Templates); n != BurstReplicas {
		t.Fatalf("%d creates, want %d", n, BurstReplicas)
	}
	rcKey, _ := KeyFunc(rc)
	exp, _, _ := f.rm.expectations.GetExpectations(rcKey)
	if add, _ := exp.GetExpectations(); add != BurstReplicas {
		t.Errorf("expecting %d creates, want %d", add, BurstReplicas)
	}
}

func TestOneSyncDeletesAtMostBurstReplicas(t *testing.T) {
	f := newFixture(t, &client.Fake{}, 3)
	rc := newRC(1)
	f.addRC(t, rc)
	f.addPods(t, newPods(10, rc)...)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.podControl.DeletePodName); n != 3 {
		t.Fatalf("%d deletes, want the burst of 3", n)
	}
}

func TestSlowStartStopsAtTheFirstFailedBatchAndReturnsTheSkippedCreatesToExpectations(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	f.podControl.CreateLimit = 4
	rc := newRC(20)
	f.addRC(t, rc)
	err := f.sync(t, rc)
	if err == nil {
		t.Fatal("sync succeeded although creates failed")
	}
	// Batches of 1 and 2 succeed; the batch of 4 has one success and three
	// failures, and no batch of 8 follows.
	if calls := f.podControl.CreateCallCount; calls != 7 {
		t.Errorf("%d create calls, want 7 (batches 1, 2, 4)", calls)
	}
	rcKey, _ := KeyFunc(rc)
	exp, _, _ := f.rm.expectations.GetExpectations(rcKey)
	if add, _ := exp.GetExpectations(); add != 4 {
		t.Errorf("still expecting %d creates, want the 4 that succeeded", add)
	}
	writes := f.statusWrites()
	if len(writes) != 1 || len(writes[0].CurrentState.Conditions) != 1 || writes[0].CurrentState.Conditions[0].Reason != "FailedCreate" {
		t.Errorf("want one status write with a FailedCreate condition, got %+v", writes)
	}
}

func TestDeletionTakesUnscheduledThenPendingThenNotReadyPodsFirst(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(2)
	f.addRC(t, rc)
	unscheduled := newPod("unscheduled", rc)
	unscheduled.Spec.NodeName = ""
	unscheduled.Status.Phase = v1.PodPending
	pending := newPod("pending", rc)
	pending.Status.Phase = v1.PodPending
	notReady := newPod("not-ready", rc)
	notReady.Status.Conditions[0].Status = v1.ConditionFalse
	ready1, ready2 := newPod("ready-1", rc), newPod("ready-2", rc)
	f.addPods(t, ready1, notReady, ready2, pending, unscheduled)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	got := append([]string{}, f.podControl.DeletePodName...)
	sort.Strings(got)
	if fmt.Sprint(got) != "[not-ready pending unscheduled]" {
		t.Errorf("deleted %v, want the unscheduled, pending and not-ready pods", got)
	}
}

func TestAMatchingOrphanIsAdoptedAndAnOwnedPodThatNoLongerMatchesIsReleased(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(1)
	f.addRC(t, rc)
	orphan := newPod("orphan", nil)
	strayed := newPod("strayed", rc)
	strayed.Labels = map[string]string{"name": "bar"}
	foreign := newPod("foreign", nil)
	foreign.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1beta1", Kind: "ReplicationController", Name: "other", UID: "other-uid", Controller: new(bool)}}
	*foreign.OwnerReferences[0].Controller = true
	f.addPods(t, orphan, strayed, foreign)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	updates := map[string]*v1.Pod{}
	for _, p := range f.podControl.Updates {
		updates[p.Name] = p
	}
	if len(updates) != 2 {
		t.Fatalf("updated %d pods, want the orphan and the strayed one", len(f.podControl.Updates))
	}
	if ref := metav1.GetControllerOf(updates["orphan"]); ref == nil || ref.UID != rc.UID {
		t.Errorf("orphan not adopted: %+v", updates["orphan"].OwnerReferences)
	}
	if updates["orphan"].ResourceVersion != "1" {
		t.Errorf("adoption must write at the cached resourceVersion, got %q", updates["orphan"].ResourceVersion)
	}
	if refs := updates["strayed"].OwnerReferences; len(refs) != 0 {
		t.Errorf("strayed pod still owned: %+v", refs)
	}
	// The adopted orphan counts: replicas 1, nothing to create.
	if n := len(f.podControl.Templates); n != 0 {
		t.Errorf("%d creates after adopting the orphan, want 0", n)
	}
	// One uncached GET of the controller before adopting.
	gets := 0
	for _, a := range f.client.Actions() {
		if a.Action == "get-controller" {
			gets++
		}
	}
	if gets != 1 {
		t.Errorf("%d controller GETs, want the one canAdopt check", gets)
	}
}

func TestAControllerReplacedUnderTheSameNameAdoptsNothing(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(1)
	f.addRC(t, rc)
	f.client.Ctrl.UID = "a-newer-controller"
	f.addPods(t, newPod("orphan", nil))
	if err := f.sync(t, rc); err == nil {
		t.Fatal("sync succeeded although adoption had to be refused")
	}
	if n := len(f.podControl.Updates); n != 0 {
		t.Errorf("%d pod updates, want none", n)
	}
}

func TestStatusIsWrittenOnceWhenItChangesAndNotAtAllWhenItDoesNot(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(2)
	rc.Generation = 4
	f.addRC(t, rc)
	f.addPods(t, newPods(2, rc)...)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	writes := f.statusWrites()
	if len(writes) != 1 {
		t.Fatalf("%d status writes, want 1", len(writes))
	}
	cur := writes[0].CurrentState
	if cur.Replicas != 2 || cur.ReadyReplicas != 2 || cur.AvailableReplicas != 2 || cur.FullyLabeledReplicas != 2 || cur.ObservedGeneration != 4 {
		t.Errorf("wrote status %+v", cur)
	}
	if writes[0].DesiredState.Replicas != 2 || writes[0].ResourceVersion != 18 {
		t.Errorf("status write must carry the spec and the resourceVersion it was read at: %+v", writes[0])
	}

	// The informer brings back what was written; nothing to write now.
	f.addRC(t, conversion.ReplicationControllerToV1(writes[0]))
	f.client.ClearActions()
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	if n := len(f.client.Actions()); n != 0 {
		t.Errorf("an unchanged controller cost %d requests: %+v", n, f.client.Actions())
	}
}

func TestTheApiserversOwnReplicaCountDoesNotCauseAStatusWrite(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(2)
	rc.Status = v1.ReplicationControllerStatus{Replicas: 3, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}
	f.addRC(t, rc)
	finished := newPod("finished", rc)
	finished.Status.Phase = v1.PodFailed
	f.addPods(t, append(newPods(2, rc), finished)...)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	// The apiserver counted the finished pod into replicas; the manager
	// does not, but that alone is no reason to write.
	if n := len(f.statusWrites()); n != 0 {
		t.Errorf("%d status writes, want none", n)
	}
}

// statusClient fails the first failUpdates controller updates.
type statusClient struct {
	*client.Fake
	mu          sync.Mutex
	failUpdates int
}

func (c *statusClient) UpdateReplicationController(ctx api.Context, rc *api.ReplicationController) (*api.ReplicationController, error) {
	out, err := c.Fake.UpdateReplicationController(ctx, rc)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failUpdates > 0 {
		c.failUpdates--
		return nil, apierrors.NewConflict("replicationController", rc.ID, errors.New("101: compare failed"))
	}
	return out, err
}

func TestAFailedStatusWriteIsRetriedOnceOnAFreshCopy(t *testing.T) {
	for _, tc := range []struct {
		name        string
		failUpdates int
		wantErr     bool
		wantActions string
	}{
		{"first write conflicts", 1, false, "[update-controller get-controller update-controller]"},
		{"both writes conflict", 2, true, "[update-controller get-controller update-controller]"},
		{"first write succeeds", 0, false, "[update-controller]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &statusClient{Fake: &client.Fake{}, failUpdates: tc.failUpdates}
			f := newFixture(t, c, BurstReplicas)
			rc := newRC(1)
			f.addRC(t, rc)
			f.addPods(t, newPod("pod0", rc))
			// Someone resized the controller after the cache saw it.
			f.client.Ctrl.DesiredState.Replicas = 5
			f.client.Ctrl.ResourceVersion = 19
			err := f.sync(t, rc)
			if (err != nil) != tc.wantErr {
				t.Fatalf("sync error %v, want error: %v", err, tc.wantErr)
			}
			var names []string
			for _, a := range f.client.Actions() {
				names = append(names, a.Action)
			}
			if fmt.Sprint(names) != tc.wantActions {
				t.Errorf("actions %v, want %s", names, tc.wantActions)
			}
			if writes := f.statusWrites(); tc.failUpdates > 0 {
				retry := writes[len(writes)-1]
				if retry.DesiredState.Replicas != 5 || retry.ResourceVersion != 19 || retry.CurrentState.Replicas != 1 {
					t.Errorf("the retry must keep the fresh spec and set our status: %+v", retry)
				}
			}
		})
	}
}

func TestAMinReadySecondsControllerComesBackWhenItsPodsBecomeAvailable(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(1)
	rc.Spec.MinReadySeconds = 3600
	f.addRC(t, rc)
	pod := newPod("pod0", rc)
	pod.Status.Conditions[0].LastTransitionTime = metav1.Now()
	f.addPods(t, pod)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	writes := f.statusWrites()
	if len(writes) != 1 || writes[0].CurrentState.ReadyReplicas != 1 || writes[0].CurrentState.AvailableReplicas != 0 {
		t.Fatalf("want ready 1, available 0, got %+v", writes)
	}
	// The key waits in the delaying queue, not in the queue proper.
	if n := f.rm.queue.Len(); n != 0 {
		t.Errorf("queue length %d, want the key only scheduled for later", n)
	}
}

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
