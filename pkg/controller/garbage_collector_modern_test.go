//go:build modern

package controller

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/modern/informers"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// newCollector returns a collector on caches loaded by hand; the client
// serves the pods for its fresh reads.
func newCollector(t *testing.T, c *client.Fake, rcs []*v1.ReplicationController, pods ...*v1.Pod) *GarbageCollector {
	t.Helper()
	return newCollectorOn(t, c, c, rcs, pods...)
}

// newCollectorOn is newCollector writing through w.
func newCollectorOn(t *testing.T, w client.Interface, c *client.Fake, rcs []*v1.ReplicationController, pods ...*v1.Pod) *GarbageCollector {
	t.Helper()
	f := informers.NewSharedInformerFactory(c, 0)
	gc := NewGarbageCollector(f.Pods(), f.ReplicationControllers(), w)
	t.Cleanup(gc.queue.ShutDown)
	for _, rc := range rcs {
		if err := f.ReplicationControllers().Informer().GetIndexer().Add(rc); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range pods {
		if err := f.Pods().Informer().GetIndexer().Add(p); err != nil {
			t.Fatal(err)
		}
		c.Pods.Items = append(c.Pods.Items, *conversion.PodFromV1(p))
	}
	return gc
}

// drain works the queue until it is empty.
func (gc *GarbageCollector) drain(t *testing.T) {
	t.Helper()
	for gc.queue.Len() > 0 {
		gc.processNextWorkItem(context.Background())
	}
}

// calls returns the client's calls of the given kinds, sorted.
func calls(c *client.Fake, kinds ...string) []string {
	var out []string
	for _, a := range c.Actions() {
		for _, k := range kinds {
			if a.Action == k {
				out = append(out, a.Action+" "+a.Value.(string))
			}
		}
	}
	sort.Strings(out)
	return out
}

func TestTheCollectorDeletesThePodsOfADeletedControllerAndNoOthers(t *testing.T) {
	gone, live := newRC(2), newRC(1)
	live.Name, live.UID = "bar", "bar-uid"
	c := &client.Fake{}
	gc := newCollector(t, c, []*v1.ReplicationController{live},
		newPod("a", gone), newPod("b", gone), newPod("c", live), newPod("orphan", nil))

	// The controller informer's delete event.
	gc.ownerDeleted(gone)
	gc.drain(t)

	if got, want := calls(c, "delete-pod"), []string{"delete-pod a", "delete-pod b"}; !reflect.DeepEqual(got, want) {
		t.Errorf("deleted %v, want %v", got, want)
	}
	// Seen deleted, the owner is known absent: no lookup.
	if got := calls(c, "get-controller"); len(got) != 0 {
		t.Errorf("looked the deleted owner up: %v", got)
	}
}

// TestAnUpdateThatChangesTheUIDDeletesTheOldControllersPods: an update
// event whose controller has a new uid (deleted and recreated under its
// name between two events) is the old one's deletion, and its pods go; an
// update of the same controller deletes nothing.
func TestAnUpdateThatChangesTheUIDDeletesTheOldControllersPods(t *testing.T) {
	old, resized, recreated := newRC(1), newRC(2), newRC(1)
	recreated.UID = "recreated-uid"
	c := &client.Fake{}
	gc := newCollector(t, c, []*v1.ReplicationController{recreated}, newPod("a", old))

	gc.controllerUpdated(old, resized)
	gc.drain(t)
	if got := calls(c, "delete-pod"); len(got) != 0 {
		t.Errorf("an update of the same controller deleted %v", got)
	}
	gc.controllerUpdated(old, recreated)
	gc.drain(t)
	if got, want := calls(c, "delete-pod"), []string{"delete-pod a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after an update with a new uid, deleted %v, want %v", got, want)
	}
}

// TestAPodWhoseControllerWasRecreatedIsDeleted is the recreate scenario:
// the controller of the same name in the cache has another uid, so the
// pod's owner is gone, which a fresh read confirms.
func TestAPodWhoseControllerWasRecreatedIsDeleted(t *testing.T) {
	old, recreated := newRC(1), newRC(1)
	recreated.UID = "new-uid"
	c := &client.Fake{Ctrl: *conversion.ReplicationControllerFromV1(recreated)}
	pod := newPod("a", old)
	gc := newCollector(t, c, []*v1.ReplicationController{recreated}, pod, newPod("b", recreated))

	// The pod informer's add events.
	for _, obj := range gc.podIndexer.List() {
		gc.checkPod(obj)
	}
	gc.drain(t)

	if got, want := calls(c, "delete-pod", "get-controller"), []string{"delete-pod a", "get-controller foo"}; !reflect.DeepEqual(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
}

// podWrites is a client that keeps the pods written to it.
type podWrites struct {
	*client.Fake
	written []*api.Pod
}

func (p *podWrites) UpdatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error) {
	p.written = append(p.written, pod)
	return p.Fake.UpdatePod(ctx, pod)
}

func TestAPodWithALiveOwnerOnlyLosesTheDanglingReference(t *testing.T) {
	gone := newRC(1)
	pod := newPod("a", gone)
	thing := metav1.OwnerReference{APIVersion: "v1", Kind: "Thing", Name: "t", UID: "thing-uid"}
	pod.OwnerReferences = append(pod.OwnerReferences, thing)
	c := &client.Fake{}
	w := &podWrites{Fake: c}
	gc := newCollectorOn(t, w, c, nil, pod)

	gc.ownerDeleted(gone)
	gc.drain(t)

	if got := calls(c, "delete-pod"); len(got) != 0 {
		t.Errorf("deleted %v, which has a live owner", got)
	}
	if len(w.written) != 1 || len(w.written[0].OwnerReferences) != 1 || w.written[0].OwnerReferences[0].UID != "thing-uid" {
		t.Errorf("pods written %+v, want pod a with only its Thing left", w.written)
	}
}

// gcClient fails the calls a test names with the error it names.
type gcClient struct {
	*client.Fake
	deleteErr, getControllerErr error
}

func (c *gcClient) DeletePod(ctx api.Context, id string) error {
	c.Fake.DeletePod(ctx, id)
	return c.deleteErr
}

func (c *gcClient) GetReplicationController(ctx api.Context, id string) (*api.ReplicationController, error) {
	rc, err := c.Fake.GetReplicationController(ctx, id)
	if c.getControllerErr != nil {
		return nil, c.getControllerErr
	}
	return rc, err
}

// TestRunFindsThePodsOrphanedBeforeItStartedAndStopsWhenAsked: pods whose
// controller went while no collector ran are found when it starts and
// deleted by its workers; Run returns once its context ends.
func TestRunFindsThePodsOrphanedBeforeItStartedAndStopsWhenAsked(t *testing.T) {
	gone, live := newRC(1), newRC(1)
	live.Name, live.UID = "bar", "bar-uid"
	c := &client.Fake{Ctrl: *conversion.ReplicationControllerFromV1(live)}
	gc := newCollector(t, c, []*v1.ReplicationController{live}, newPod("a", gone), newPod("b", live))
	gc.podsSynced, gc.rcsSynced = alwaysReady, alwaysReady
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		gc.Run(ctx, 1)
		close(done)
	}()
	for deadline := time.Now().Add(30 * time.Second); len(calls(c, "delete-pod")) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the orphan was never deleted")
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if got, want := calls(c, "delete-pod"), []string{"delete-pod a"}; !reflect.DeepEqual(got, want) {
		t.Errorf("deleted %v, want %v", got, want)
	}
}

// TestAFailedAttemptIsRetriedAndASuccessfulOneForgotten: the collector's
// queue backs a pod off when its delete fails and forgets it once done; a
// pod deleted meanwhile counts as done.
func TestAFailedAttemptIsRetriedAndASuccessfulOneForgotten(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		requeued bool
	}{
		{"refused", errors.New("the apiserver refused"), true},
		{"gone meanwhile", apierrors.NewNotFound("pods", "a"), false},
		{"deleted", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gone := newRC(1)
			c := &client.Fake{}
			gc := newCollectorOn(t, &gcClient{Fake: c, deleteErr: tc.err}, c, nil, newPod("a", gone))
			gc.ownerDeleted(gone)
			gc.processNextWorkItem(context.Background())
			if got := gc.queue.NumRequeues("default/a") > 0; got != tc.requeued {
				t.Errorf("requeued %v, want %v", got, tc.requeued)
			}
			if got := calls(c, "delete-pod"); len(got) != 1 {
				t.Errorf("deletes %v, want one", got)
			}
		})
	}
}

// TestAnOwnerIsDanglingOnlyWhenTheApiserverSaysSo: a pod whose owner the
// apiserver still holds under its uid is left whole; a failed lookup
// fails the attempt rather than deleting anything.
func TestAnOwnerIsDanglingOnlyWhenTheApiserverSaysSo(t *testing.T) {
	owner := newRC(1)
	for _, tc := range []struct {
		name    string
		lookup  error
		wantErr bool
	}{
		{"the owner is there", nil, false},
		{"the lookup fails", errors.New("the apiserver is away"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &client.Fake{Ctrl: *conversion.ReplicationControllerFromV1(owner)}
			gc := newCollectorOn(t, &gcClient{Fake: c, getControllerErr: tc.lookup}, c, nil, newPod("a", owner))
			err := gc.attemptToDeletePod(context.Background(), "default/a")
			if (err != nil) != tc.wantErr {
				t.Errorf("attempt returned %v, want an error %v", err, tc.wantErr)
			}
			if got := calls(c, "delete-pod", "update-pod"); len(got) != 0 {
				t.Errorf("writes %v, want none", got)
			}
			if gc.isAbsent(owner.UID) {
				t.Error("the owner was remembered as gone")
			}
		})
	}
}
