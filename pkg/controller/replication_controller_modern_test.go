//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set_test.go
// as of v1.3x: syncs run on informer caches loaded by hand (no informer is
// started), with a recording FakePodControl and our recording client.Fake.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/modern/informers"
	"github.com/prometheus/client_golang/prometheus"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
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
	if len(f.podControl.Templates) != 2 || len(f.podControl.ControllerRefs) != 2 {
		t.Fatalf("%d creates with %d ControllerRefs, want 2 and 2", len(f.podControl.Templates), len(f.podControl.ControllerRefs))
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

// TestDeletionTakesAPodDoubledUpWithItsControllersOwnPods: of ready pods,
// one on a node where more of the controller's own pods run goes first
// (history: ranked-deletion). Only the controller's own pods count: two
// pods of another controller on the other node leave its pod there the
// one to keep, although it is the newest, which the next rule would
// delete first.
func TestDeletionTakesAPodDoubledUpWithItsControllersOwnPods(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	rc := newRC(2)
	f.addRC(t, rc)
	a1, a2, b1 := newPod("a1", rc), newPod("a2", rc), newPod("b1", rc)
	a1.Spec.NodeName, a2.Spec.NodeName, b1.Spec.NodeName = "node-a", "node-a", "node-b"
	newer := metav1.NewTime(anHourAgo.Add(50 * time.Minute))
	b1.CreationTimestamp, b1.Status.Conditions[0].LastTransitionTime = newer, newer
	other := newRC(2)
	other.Name, other.UID, other.Spec.Selector = "bar", "other-uid", map[string]string{"name": "bar"}
	x1, x2 := newPod("x1", other), newPod("x2", other)
	for _, x := range []*v1.Pod{x1, x2} {
		x.Spec.NodeName, x.Labels = "node-b", map[string]string{"name": "bar"}
	}
	f.addPods(t, a1, a2, b1, x1, x2)
	if err := f.sync(t, rc); err != nil {
		t.Fatal(err)
	}
	got := f.podControl.DeletePodName
	if len(got) != 1 || (got[0] != "a1" && got[0] != "a2") {
		t.Errorf("deleted %v, want one of a1 and a2, doubled up on node-a", got)
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

// TestAFailedSyncIsCounted: a sync whose creates fail counts as a failed
// sync, with status writes and without them; one that succeeds does not.
func TestAFailedSyncIsCounted(t *testing.T) {
	for _, withoutStatus := range []bool{false, true} {
		for _, fail := range []bool{false, true} {
			f := newFixture(t, &client.Fake{}, BurstReplicas)
			f.rm.Without.StatusWrites = withoutStatus
			if fail {
				f.podControl.Err = errors.New("the apiserver refused")
			}
			rc := newRC(2)
			f.addRC(t, rc)
			f.addPods(t, newPod("pod0", rc))
			before := counterValue(syncErrors)
			if err := f.sync(t, rc); (err != nil) != fail {
				t.Errorf("without status writes %v, failing %v: sync returned %v", withoutStatus, fail, err)
			}
			want := 0.0
			if fail {
				want = 1
			}
			if got := counterValue(syncErrors) - before; got != want {
				t.Errorf("without status writes %v, failing %v: %v failed syncs counted, want %v", withoutStatus, fail, got, want)
			}
		}
	}
}

// TestTheExpectationsGaugeCountsCreatesAndDeletesApart reads the pending
// expectations as /metrics shows them, one gauge for each kind.
func TestTheExpectationsGaugeCountsCreatesAndDeletesApart(t *testing.T) {
	f := newFixture(t, &client.Fake{}, BurstReplicas)
	reg := prometheus.NewRegistry()
	f.rm.RegisterMetrics(reg)
	f.rm.expectations.ExpectCreations("default/foo", 3)
	f.rm.expectations.ExpectDeletions("default/bar", []string{"default/a", "default/b"})
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range families {
		if mf.GetName() != "replication_manager_expectations_pending" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				got[l.GetValue()] = m.GetGauge().GetValue()
			}
		}
	}
	if fmt.Sprint(got) != "map[create:3 delete:2]" {
		t.Errorf("pending expectations %v, want 3 creates and 2 deletes", got)
	}
}

// TestACreateThatTimedOutIsStillExpected: a create the apiserver may yet
// finish (a 504, or the 2014 apiserver's 202 Working) is no failure: its
// pod is still expected and the creates go on; a create refused outright
// stops the slow start, and is not expected.
func TestACreateThatTimedOutIsStillExpected(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		wantErr  bool
		creates  int
		expected int64
	}{
		{"timed out", apierrors.NewTimeout("the write did not finish"), false, 3, 3},
		{"still working", apierrors.NewStatus(http.StatusAccepted, api.StatusReasonWorking, "the write goes on"), false, 3, 3},
		{"refused", errors.New("the apiserver refused"), true, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, &client.Fake{}, BurstReplicas)
			f.podControl.Err = tc.err
			rc := newRC(3)
			f.addRC(t, rc)
			if err := f.sync(t, rc); (err != nil) != tc.wantErr {
				t.Errorf("sync returned %v", err)
			}
			if f.podControl.CreateCallCount != tc.creates {
				t.Errorf("%d creates sent, want %d", f.podControl.CreateCallCount, tc.creates)
			}
			exp, _, _ := f.rm.expectations.GetExpectations("default/foo")
			if adds, _ := exp.GetExpectations(); adds != tc.expected {
				t.Errorf("%d creates expected, want %d", adds, tc.expected)
			}
		})
	}
}

// TestADeleteRefusedFailsTheSyncAndOneOfAPodGoneDoesNot: a pod already
// gone is what a delete wanted; any other failure is the sync's, retried.
func TestADeleteRefusedFailsTheSyncAndOneOfAPodGoneDoesNot(t *testing.T) {
	for _, tc := range []struct {
		name    string
		err     error
		wantErr bool
	}{
		{"gone", apierrors.NewNotFound("pods", "pod0"), false},
		{"refused", errors.New("the apiserver refused"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, &client.Fake{}, BurstReplicas)
			f.podControl.Err = tc.err
			rc := newRC(1)
			f.addRC(t, rc)
			f.addPods(t, newPods(2, rc)...)
			if err := f.sync(t, rc); (err != nil) != tc.wantErr {
				t.Errorf("sync returned %v, want an error %v", err, tc.wantErr)
			}
			if !f.rm.expectations.SatisfiedExpectations("default/foo") {
				t.Error("a delete that failed is still expected")
			}
		})
	}
}
