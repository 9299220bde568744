//go:build modern

package service

// Follows kubernetes/kubernetes pkg/controller/endpoint/endpoints_controller_test.go
// as of v1.3x: syncService runs on caches loaded by hand, against our
// recording client.Fake.

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/informers"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/util/workqueue"
	clocktesting "k8s.io/utils/clock/testing"
)

type fixture struct {
	e       *EndpointController
	client  *client.Fake
	factory *informers.SharedInformerFactory
}

func newFixture(t *testing.T) *fixture {
	c := &client.Fake{}
	f := informers.NewSharedInformerFactory(c, 0)
	e := NewEndpointController(f.Pods(), f.Services(), f.Endpoints(), c)
	t.Cleanup(e.queue.ShutDown)
	return &fixture{e: e, client: c, factory: f}
}

func (f *fixture) add(t *testing.T, objs ...interface{}) {
	t.Helper()
	for _, obj := range objs {
		var err error
		switch o := obj.(type) {
		case *v1.Pod:
			err = f.factory.Pods().Informer().GetIndexer().Add(o)
		case *v1.Service:
			err = f.factory.Services().Informer().GetIndexer().Add(o)
		case *v1.Endpoints:
			err = f.factory.Endpoints().Informer().GetIndexer().Add(o)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func service(targetPort intstr.IntOrString) *v1.Service {
	return &v1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "foo", Namespace: api.NamespaceDefault},
		Spec: v1.ServiceSpec{
			Selector: map[string]string{"foo": "bar"},
			Ports:    []v1.ServicePort{{Port: 80, TargetPort: targetPort}},
		},
	}
}

func servingPod(name, ip string, ready bool) *v1.Pod {
	status := v1.ConditionTrue
	if !ready {
		status = v1.ConditionFalse
	}
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: api.NamespaceDefault, Labels: map[string]string{"foo": "bar"}, ResourceVersion: "1"},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Ports: []v1.ContainerPort{
			{Name: "http", ContainerPort: 8080}, {Name: "admin", ContainerPort: 9090},
		}}}},
		Status: v1.PodStatus{Phase: v1.PodRunning, PodIP: ip, Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: status}}},
	}
}

func existingEndpoints(rv string, eps ...string) *v1.Endpoints {
	out := &v1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "foo", Namespace: api.NamespaceDefault, ResourceVersion: rv}}
	for _, ep := range eps {
		ip, port, _ := net.SplitHostPort(ep)
		n, _ := strconv.Atoi(port)
		out.Subsets = append(out.Subsets, v1.EndpointSubset{Addresses: []v1.EndpointAddress{{IP: ip}}, Ports: []v1.EndpointPort{{Port: int32(n)}}})
	}
	return out
}

func (f *fixture) sync(t *testing.T) {
	t.Helper()
	if err := f.e.syncService(context.Background(), "default/foo"); err != nil {
		t.Fatal(err)
	}
}

func TestANewServiceGetsItsEndpointsCreated(t *testing.T) {
	f := newFixture(t)
	f.add(t, service(intstr.FromInt32(0)), servingPod("a", "1.2.3.4", true))
	f.sync(t)
	actions := f.client.Actions()
	if len(actions) != 1 || actions[0].Action != "create-endpoints" {
		t.Fatalf("actions %+v, want one create-endpoints", actions)
	}
	eps := actions[0].Value.(*api.Endpoints)
	if eps.ID != "foo" || fmt.Sprint(eps.Endpoints) != "[1.2.3.4:8080]" {
		t.Errorf("created %+v", eps)
	}
}

func TestOnlyReadyPodsWithAnAddressAreEndpointsAndTheNamedPortIsUsed(t *testing.T) {
	f := newFixture(t)
	noIP := servingPod("no-ip", "", true)
	failed := servingPod("failed", "5.5.5.5", true)
	failed.Status.Phase = v1.PodFailed
	f.add(t, service(intstr.FromString("admin")), existingEndpoints("7"),
		servingPod("a", "1.2.3.4", true), servingPod("b", "1.2.3.5", true), servingPod("not-ready", "1.2.3.6", false), noIP, failed)
	f.sync(t)
	actions := f.client.Actions()
	if len(actions) != 1 || actions[0].Action != "update-endpoints" {
		t.Fatalf("actions %+v, want one update-endpoints", actions)
	}
	eps := actions[0].Value.(*api.Endpoints)
	got := append([]string{}, eps.Endpoints...)
	sort.Strings(got)
	if fmt.Sprint(got) != "[1.2.3.4:9090 1.2.3.5:9090]" || eps.ResourceVersion != 7 {
		t.Errorf("updated to %v at rv %d", got, eps.ResourceVersion)
	}
}

func TestUnchangedEndpointsCostNoRequest(t *testing.T) {
	f := newFixture(t)
	f.add(t, service(intstr.FromInt32(0)), existingEndpoints("3", "1.2.3.4:8080"), servingPod("a", "1.2.3.4", true))
	f.sync(t)
	if n := len(f.client.Actions()); n != 0 {
		t.Errorf("%d requests for unchanged endpoints: %+v", n, f.client.Actions())
	}
}

func TestADeletedServiceOrOneWithoutSelectorIsLeftAlone(t *testing.T) {
	f := newFixture(t)
	f.sync(t)
	noSelector := service(intstr.FromInt32(0))
	noSelector.Spec.Selector = nil
	f.add(t, noSelector)
	f.sync(t)
	if n := len(f.client.Actions()); n != 0 {
		t.Errorf("%d requests: %+v", n, f.client.Actions())
	}
}

func TestPodChangesQueueTheServicesThatSelectThem(t *testing.T) {
	f := newFixture(t)
	f.add(t, service(intstr.FromInt32(0)))
	drain := func() []string {
		var keys []string
		for f.e.queue.Len() > 0 {
			k, _ := f.e.queue.Get()
			f.e.queue.Done(k)
			keys = append(keys, k)
		}
		return keys
	}
	pod := servingPod("a", "1.2.3.4", true)
	f.e.addPod(pod)
	if keys := drain(); fmt.Sprint(keys) != "[default/foo]" {
		t.Errorf("add queued %v", keys)
	}
	f.e.updatePod(pod, pod.DeepCopy())
	if keys := drain(); len(keys) != 0 {
		t.Errorf("a resync queued %v", keys)
	}
	moved := pod.DeepCopy()
	moved.Labels = map[string]string{"foo": "elsewhere"}
	moved.ResourceVersion = "2"
	f.e.updatePod(pod, moved)
	if keys := drain(); fmt.Sprint(keys) != "[default/foo]" {
		t.Errorf("a pod leaving the service queued %v", keys)
	}
	other := servingPod("b", "1.2.3.5", true)
	other.Labels = nil
	f.e.deletePod(other)
	if keys := drain(); len(keys) != 0 {
		t.Errorf("an unrelated pod queued %v", keys)
	}
}

// stuckService loads f's caches with service foo, its endpoints as given
// (nil: none yet) and two serving pods, gives its controller a queue on a
// clock that stands still, and fails twenty syncs of foo with err, as an
// apiserver does while the cache trails it. It returns the key, waiting
// out its backoff: on a real clock the first failure's 5 ms retry would
// come back by itself in the middle of the test.
func stuckService(t *testing.T, f *fixture, endpoints *v1.Endpoints, err error) string {
	t.Helper()
	f.e.queue = workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "endpoint", Clock: clocktesting.NewFakeClock(time.Now())},
	)
	t.Cleanup(f.e.queue.ShutDown)
	f.add(t, service(intstr.FromInt32(0)), servingPod("a", "1.2.3.4", true), servingPod("b", "1.2.3.5", true))
	if endpoints != nil {
		f.add(t, endpoints)
	}
	const key = "default/foo"
	f.client.Err = err
	for i := 0; i < 20; i++ {
		f.e.queue.Add(key)
		f.e.processNextWorkItem(context.Background())
	}
	if n := f.e.queue.NumRequeues(key); n != 20 {
		t.Fatalf("%d failures counted, want 20", n)
	}
	if n := f.e.queue.Len(); n != 0 {
		t.Fatalf("%d keys ready after the failures, want the service waiting out its backoff", n)
	}
	f.client.Err = nil
	return key
}

// syncedOnce processes the one key that must be ready and returns the
// requests its sync sent.
func (f *fixture) syncedOnce(t *testing.T) []client.FakeAction {
	t.Helper()
	if n := f.e.queue.Len(); n != 1 {
		t.Fatalf("%d keys ready once the cache caught up, want the service", n)
	}
	before := len(f.client.Actions())
	f.e.processNextWorkItem(context.Background())
	return f.client.Actions()[before:]
}

// TestAServiceStuckOnAStaleCacheIsSyncedWhenTheCacheCatchesUp plants what an
// apiserver restart did to a scale-up: the endpoints cache trails the
// store, so every PUT conflicts, and twenty conflicts push the service's
// next retry 1000 s away. The cache catching up must queue it at once,
// and the sync must then write the endpoints at the fresh version. An
// update of the cache after a sync that succeeded queues nothing.
func TestAServiceStuckOnAStaleCacheIsSyncedWhenTheCacheCatchesUp(t *testing.T) {
	f := newFixture(t)
	stale := existingEndpoints("30", "1.2.3.4:8080")
	key := stuckService(t, f, stale, apierrors.NewConflict("endpoints", "foo", fmt.Errorf("101: Compare failed ([30 != 140])")))

	fresh := existingEndpoints("140", "1.2.3.4:8080")
	f.add(t, fresh)
	f.e.onEndpointsUpdate(stale, fresh)
	actions := f.syncedOnce(t)
	if len(actions) != 1 || actions[0].Action != "update-endpoints" {
		t.Fatalf("actions %+v, want one update-endpoints", actions)
	}
	if eps := actions[0].Value.(*api.Endpoints); eps.ResourceVersion != 140 || len(eps.Endpoints) != 2 {
		t.Errorf("wrote %v at rv %d, want both pods at rv 140", eps.Endpoints, eps.ResourceVersion)
	}
	if n := f.e.queue.NumRequeues(key); n != 0 {
		t.Errorf("%d failures still counted after the sync succeeded", n)
	}

	// The echo of that write: nothing failed, nothing to do.
	echo := existingEndpoints("141", "1.2.3.4:8080", "1.2.3.5:8080")
	f.e.onEndpointsUpdate(fresh, echo)
	if n := f.e.queue.Len(); n != 0 {
		t.Errorf("the echo of a successful write queued %d keys", n)
	}
}

// TestAServiceStuckOnAnObjectItsCacheHadNotSeenIsSyncedWhenItArrives is the
// same with the endpoints missing from the trailing cache: every POST
// finds them already there, until the cache adds them.
func TestAServiceStuckOnAnObjectItsCacheHadNotSeenIsSyncedWhenItArrives(t *testing.T) {
	f := newFixture(t)
	stuckService(t, f, nil, apierrors.NewAlreadyExists("endpoints", "foo"))

	arrived := existingEndpoints("140", "1.2.3.4:8080")
	f.add(t, arrived)
	f.e.onEndpointsAdd(arrived)
	actions := f.syncedOnce(t)
	if len(actions) != 1 || actions[0].Action != "update-endpoints" || actions[0].Value.(*api.Endpoints).ResourceVersion != 140 {
		t.Fatalf("actions %+v, want one update-endpoints at rv 140", actions)
	}

	// At start the informer adds every object before any sync failed.
	other := existingEndpoints("7")
	other.Name = "bar"
	f.e.onEndpointsAdd(other)
	if n := f.e.queue.Len(); n != 0 {
		t.Errorf("an object added with no failure behind it queued %d keys", n)
	}
}
