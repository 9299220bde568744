//go:build modern

package controller

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
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
