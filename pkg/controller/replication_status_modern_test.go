//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set_test.go
// as of v1.3x: the status a sync writes, and when it writes none.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/workqueue"
)

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

// afterQueue records the keys the manager schedules for later.
type afterQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu    sync.Mutex
	after []string
}

func (q *afterQueue) AddAfter(key string, d time.Duration) {
	q.mu.Lock()
	q.after = append(q.after, fmt.Sprintf("%s in %v", key, d))
	q.mu.Unlock()
	q.TypedRateLimitingInterface.AddAfter(key, d)
}

// TestOnlyAControllerAllReadyButNotAllAvailableIsScheduledToComeBack: a
// sync that leaves every replica ready but some not yet available for
// minReadySeconds schedules the controller again once that has passed, in
// case no pod event brings it back; no other sync does.
func TestOnlyAControllerAllReadyButNotAllAvailableIsScheduledToComeBack(t *testing.T) {
	for _, tc := range []struct {
		name       string
		minReady   int32
		replicas   int32
		readySince metav1.Time
		// failDelete adds a pod that is not ready, whose delete fails:
		// the one ready pod is then all the controller asks for.
		failDelete bool
		want       string
	}{
		{name: "ready, not yet available", minReady: 60, replicas: 1, readySince: metav1.Now(), want: "[default/foo in 1m0s]"},
		{name: "no minReadySeconds", minReady: 0, replicas: 1, readySince: metav1.Now(), want: "[]"},
		{name: "available", minReady: 60, replicas: 1, readySince: anHourAgo, want: "[]"},
		{name: "not all ready", minReady: 60, replicas: 2, readySince: metav1.Now(), want: "[]"},
		{name: "a delete failed", minReady: 60, replicas: 1, readySince: metav1.Now(), failDelete: true, want: "[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, &client.Fake{}, BurstReplicas)
			q := &afterQueue{TypedRateLimitingInterface: f.rm.queue}
			f.rm.queue = q
			rc := newRC(tc.replicas)
			rc.Spec.MinReadySeconds = tc.minReady
			f.addRC(t, rc)
			pod := newPod("pod0", rc)
			pod.Status.Conditions[0].LastTransitionTime = tc.readySince
			f.addPods(t, pod)
			if tc.failDelete {
				f.podControl.Err = errors.New("the apiserver refused")
				unready := newPod("pod1", rc)
				unready.Status.Conditions = nil
				f.addPods(t, unready)
			}
			if err := f.sync(t, rc); (err != nil) != tc.failDelete {
				t.Fatalf("sync: %v", err)
			}
			if got := fmt.Sprint(q.after); got != tc.want {
				t.Errorf("scheduled %s, want %s", got, tc.want)
			}
		})
	}
}

// TestAFailureConditionNamesWhatFailedAndGoesWhenTheFailuresStop: while
// creates or deletes fail, the status carries a ReplicaFailure condition
// saying which (FailedCreate with pods missing, FailedDelete with pods
// over, neither with the count right); a sync without a failure removes
// it. Mutants of both the reason's
// choice and the removal lived without this test.
func TestAFailureConditionNamesWhatFailedAndGoesWhenTheFailuresStop(t *testing.T) {
	failure := func(st v1.ReplicationControllerStatus) *v1.ReplicationControllerCondition {
		return getCondition(st, v1.ReplicationControllerReplicaFailure)
	}
	refused := errors.New("the apiserver refused")
	for _, tc := range []struct {
		name   string
		pods   int
		reason string
	}{
		{"too few", 1, "FailedCreate"},
		{"too many", 5, "FailedDelete"},
		// An error with the count right (a claim refused) names neither.
		{"exact", 3, ""},
	} {
		rc := newRC(3)
		st := calculateStatus(rc, newPods(tc.pods, rc), refused)
		cond := failure(st)
		if cond == nil || cond.Reason != tc.reason || cond.Status != v1.ConditionTrue || cond.Message != refused.Error() {
			t.Errorf("%s: failure condition %+v, want %s saying %q", tc.name, cond, tc.reason, refused)
			continue
		}
		rc.Status = st
		if cond := failure(calculateStatus(rc, newPods(3, rc), nil)); cond != nil {
			t.Errorf("%s: a sync without a failure kept the condition %+v", tc.name, cond)
		}
	}
}

// TestAFailureThatPersistsWritesNoStatus: a controller whose status
// already carries the failure condition, synced into the same failure,
// costs no request, its conditions compared field by field; conditions
// that differ in any field are not equal. Every comparison of
// conditionsEqual negated went uncovered before this test.
func TestAFailureThatPersistsWritesNoStatus(t *testing.T) {
	refused := errors.New("the apiserver refused")
	rc := newRC(3)
	pods := newPods(1, rc)
	rc.Status = calculateStatus(rc, pods, refused)
	rc.Status.ObservedGeneration = rc.Generation
	fake := &client.Fake{}
	if _, err := updateReplicationControllerStatus(context.Background(), fake, rc, calculateStatus(rc, pods, refused)); err != nil {
		t.Fatal(err)
	}
	if n := len(fake.Actions()); n != 0 {
		t.Errorf("a failure that persists cost %d requests: %+v", n, fake.Actions())
	}
	base := *getCondition(rc.Status, v1.ReplicationControllerReplicaFailure)
	for field, change := range map[string]func(*v1.ReplicationControllerCondition){
		"type":    func(c *v1.ReplicationControllerCondition) { c.Type = "Other" },
		"status":  func(c *v1.ReplicationControllerCondition) { c.Status = v1.ConditionFalse },
		"reason":  func(c *v1.ReplicationControllerCondition) { c.Reason = "FailedDelete" },
		"message": func(c *v1.ReplicationControllerCondition) { c.Message = "another" },
		"time": func(c *v1.ReplicationControllerCondition) {
			c.LastTransitionTime.Time = c.LastTransitionTime.Add(time.Second)
		},
	} {
		c := base
		change(&c)
		if conditionsEqual([]v1.ReplicationControllerCondition{base}, []v1.ReplicationControllerCondition{c}) {
			t.Errorf("conditions that differ in their %s are taken as equal", field)
		}
	}
}
