package controller

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

var ctx = rt.Ctx()

func newStorage(t *testing.T) (*REST, *etcd.Registry) {
	registry := etcd.NewRegistry(rt.NewHelper(t))
	return NewREST(registry, registry), registry
}

func addPods(t *testing.T, registry *etcd.Registry, label string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		pod := rt.ValidPod(fmt.Sprintf("%s-%d", label, i), label)
		pod.Namespace = "default"
		if err := registry.CreatePod(ctx, pod); err != nil {
			t.Fatal(err)
		}
	}
}

func TestCreateNamesAnAnonymousControllerAndClearsTheTemplatesManifestID(t *testing.T) {
	rest, _ := newStorage(t)
	in := rt.ValidController("", "web", 2)
	in.DesiredState.PodTemplate.DesiredState.Manifest.ID = "template-id"
	rc := rt.Create(t, rest, in)
	if len(rc.ID) != 36 || rc.DesiredState.PodTemplate.DesiredState.Manifest.ID != "" {
		t.Errorf("id %q, template manifest id %q", rc.ID, rc.DesiredState.PodTemplate.DesiredState.Manifest.ID)
	}
	if rc.Generation != 1 || rc.UID == "" || rc.Namespace != "default" || rc.CreationTimestamp.IsZero() || rc.ResourceVersion == 0 {
		t.Errorf("meta %+v", rc.TypeMeta)
	}
	if port := rc.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0].Ports[0]; port.Protocol != api.ProtocolTCP {
		t.Errorf("port protocol not defaulted: %+v", port)
	}
}

func TestCreateRefusals(t *testing.T) {
	rest, _ := newStorage(t)
	rt.Create(t, rest, rt.ValidController("taken", "x", 1))
	noSelector := rt.ValidController("a", "x", 1)
	noSelector.DesiredState.ReplicaSelector = nil
	negative := rt.ValidController("b", "x", -1)
	cases := []struct {
		name string
		obj  api.Object
		code int
	}{
		{"no selector", noSelector, 422},
		{"negative replicas", negative, 422},
		{"an id in use", rt.ValidController("taken", "x", 1), 409},
		{"another kind", &api.Pod{}, 400},
	}
	for _, c := range cases {
		_, err := rt.Await(rest.Create(ctx, c.obj))
		rt.ExpectCode(t, c.name, err, c.code)
	}
	rt.ExpectHostileIDsRefused(t, rest, func(id string) api.Object { return rt.ValidController(id, "x", 1) })
}

func TestGetAndListCountTheMatchingPods(t *testing.T) {
	rest, registry := newStorage(t)
	rt.Create(t, rest, rt.ValidController("web", "web", 3))
	rt.Create(t, rest, rt.ValidController("db", "db", 1))
	addPods(t, registry, "web", 2)
	addPods(t, registry, "other", 4)
	obj, err := rest.Get(ctx, "web")
	if err != nil {
		t.Fatal(err)
	}
	if got := obj.(*api.ReplicationController).CurrentState.Replicas; got != 2 {
		t.Errorf("web currentState.replicas = %d, want 2", got)
	}
	obj, err = rest.List(ctx, labels.Set{"app": "db"}.AsSelector(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	list := obj.(*api.ReplicationControllerList)
	if len(list.Items) != 1 || list.Items[0].ID != "db" || list.Items[0].CurrentState.Replicas != 0 {
		t.Errorf("list by the controller's own labels: %+v", list.Items)
	}
	_, err = rest.List(ctx, labels.Everything(), labels.Set{"ID": "web"}.AsSelector())
	rt.ExpectCode(t, "field selector on list", err, 400)
}

func TestUpdateAndDelete(t *testing.T) {
	rest, _ := newStorage(t)
	rc := rt.Create(t, rest, rt.ValidController("web", "web", 1))
	first := rc.ResourceVersion
	rc.DesiredState.Replicas = 4
	// The modern manager's status fields are stored as written.
	rc.CurrentState.ReadyReplicas = 3
	rc.CurrentState.ObservedGeneration = 1
	obj, err := rt.Await(rest.Update(ctx, rc))
	if err != nil {
		t.Fatal(err)
	}
	updated := obj.(*api.ReplicationController)
	if updated.DesiredState.Replicas != 4 || updated.Generation != 2 || updated.ResourceVersion <= first {
		t.Errorf("after update: replicas %d generation %d rv %d", updated.DesiredState.Replicas, updated.Generation, updated.ResourceVersion)
	}
	if got, _ := rest.Get(ctx, "web"); got.(*api.ReplicationController).CurrentState.ReadyReplicas != 3 ||
		got.(*api.ReplicationController).CurrentState.ObservedGeneration != 1 {
		t.Errorf("status fields not kept: %+v", got.(*api.ReplicationController).CurrentState)
	}
	stale := rt.ValidController("web", "web", 9)
	stale.ResourceVersion = first
	_, err = rt.Await(rest.Update(ctx, stale))
	rt.ExpectCode(t, "stale update", err, 409)
	_, err = rt.Await(rest.Update(ctx, rt.ValidController("web", "web", 9)))
	rt.ExpectCode(t, "update without resourceVersion of an existing controller", err, 409)
	_, err = rt.Await(rest.Update(ctx, rt.ValidController("web", "web", -9)))
	rt.ExpectCode(t, "invalid update", err, 422)

	if _, err := rt.Await(rest.Delete(ctx, "web")); err != nil {
		t.Fatal(err)
	}
	rt.ExpectGone(t, rest, "web")
}

func TestWatchFiltersByTheControllersLabelsAndFillsTheCount(t *testing.T) {
	rest, registry := newStorage(t)
	addPods(t, registry, "web", 2)
	rt.Create(t, rest, rt.ValidController("db", "db", 1))
	web := rt.Create(t, rest, rt.ValidController("web", "web", 2))
	w, err := rest.Watch(ctx, labels.Set{"app": "web"}.AsSelector(), labels.Everything(), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := watchtest.Next(t, w)
	rc := e.Object.(*api.ReplicationController)
	if e.Type != watch.Added || rc.ID != "web" || rc.CurrentState.Replicas != 2 {
		t.Fatalf("replay: %v %s replicas %d", e.Type, rc.ID, rc.CurrentState.Replicas)
	}
	watchtest.StopAndDrain(t, w)

	web.DesiredState.Replicas = 5
	if _, err := rt.Await(rest.Update(ctx, web)); err != nil {
		t.Fatal(err)
	}
	w, err = rest.Watch(ctx, labels.Set{"app": "web"}.AsSelector(), labels.Everything(), rc.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w)
	e = watchtest.Next(t, w)
	if rc := e.Object.(*api.ReplicationController); e.Type != watch.Modified || rc.DesiredState.Replicas != 5 || rc.CurrentState.Replicas != 2 {
		t.Errorf("resumed: %v replicas %d/%d", e.Type, rc.DesiredState.Replicas, rc.CurrentState.Replicas)
	}
	_, err = rest.Watch(ctx, labels.Everything(), labels.Set{"ID": "web"}.AsSelector(), 0)
	rt.ExpectCode(t, "field selector on watch", err, 400)
}

func TestStoppedWatchesLeaveNoGoroutinesEvenWithEventsUntaken(t *testing.T) {
	rest, _ := newStorage(t)
	rt.Create(t, rest, rt.ValidController("web", "web", 1))
	rt.Create(t, rest, rt.ValidController("db", "db", 1))
	cycle := func() {
		w, err := rest.Watch(ctx, labels.Everything(), labels.Everything(), 0)
		if err != nil {
			t.Fatal(err)
		}
		// Both controllers are replayed; nobody reads them.
		time.Sleep(5 * time.Millisecond)
		w.Stop()
	}
	cycle()
	time.Sleep(200 * time.Millisecond)
	baseline := runtime.NumGoroutine()
	const cycles = 60
	for i := 0; i < cycles; i++ {
		cycle()
	}
	watchtest.GoroutinesAtMost(t, baseline+10)
}
