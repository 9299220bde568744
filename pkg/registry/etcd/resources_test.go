package etcd

import (
	"strings"
	"testing"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

func TestUpdateControllerCountsGenerationsOfDesiredState(t *testing.T) {
	r, fake := newFakeRegistry(t)
	rc := registrytest.ValidController("rc", "x", 1)
	rc.Generation = 1
	rc.UID = "uid-rc"
	if err := r.CreateController(ctx, rc); err != nil {
		t.Fatal(err)
	}
	labelsOnly := registrytest.ValidController("rc", "x", 1)
	labelsOnly.ResourceVersion = rc.ResourceVersion
	labelsOnly.Labels["extra"] = "yes"
	labelsOnly.Generation = 42
	if err := r.UpdateController(ctx, labelsOnly); err != nil {
		t.Fatal(err)
	}
	got, _ := r.GetController(ctx, "rc")
	if got.Generation != 1 || got.UID != "uid-rc" {
		t.Errorf("after a label change: generation %d uid %q, want 1 and kept", got.Generation, got.UID)
	}
	got.DesiredState.Replicas = 5
	if err := r.UpdateController(ctx, got); err != nil {
		t.Fatal(err)
	}
	got, _ = r.GetController(ctx, "rc")
	if got.Generation != 2 {
		t.Errorf("after a replicas change: generation %d, want 2", got.Generation)
	}
	stale := registrytest.ValidController("rc", "x", 3)
	stale.ResourceVersion = rc.ResourceVersion
	if err := r.UpdateController(ctx, stale); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v", err)
	}
	fake.ExpectNotFoundGet("/registry/controllers/fresh")
	if err := r.UpdateController(ctx, registrytest.ValidController("fresh", "x", 1)); err != nil {
		t.Errorf("update without version of a missing controller creates it (as 2014): %v", err)
	}
}

func TestDeleteControllerIsNotRecursiveAndDeleteServiceTakesItsEndpoints(t *testing.T) {
	r, fake := newFakeRegistry(t)
	store(t, fake, "/registry/controllers/rc", registrytest.ValidController("rc", "x", 1))
	store(t, fake, "/registry/services/specs/web", registrytest.ValidService("web", "x"))
	store(t, fake, "/registry/services/endpoints/web", &api.Endpoints{TypeMeta: api.TypeMeta{ID: "web"}})
	store(t, fake, "/registry/services/specs/lonely", registrytest.ValidService("lonely", "x"))
	if err := r.DeleteController(ctx, "rc"); err != nil {
		t.Fatal(err)
	}
	if err := r.DeleteService(ctx, "web"); err != nil {
		t.Fatal(err)
	}
	if err := r.DeleteService(ctx, "lonely"); err != nil {
		t.Errorf("a service without endpoints: %v", err)
	}
	want := "/registry/controllers/rc /registry/services/specs/web /registry/services/endpoints/web /registry/services/specs/lonely"
	if got := strings.Join(fake.DeletedKeys, " "); got != want {
		t.Errorf("deleted %s, want %s", got, want)
	}
	for _, a := range fake.Actions {
		if a.Action == "delete" && a.Key == "/registry/controllers/rc" && a.Recursive {
			t.Errorf("a controller was deleted recursively: %+v", a)
		}
	}
}

func TestUpdateEndpointsSwapsWithAVersionAndOverwritesWithout(t *testing.T) {
	r, fake := newFakeRegistry(t)
	fake.ExpectNotFoundGet("/registry/services/endpoints/web")
	first := &api.Endpoints{TypeMeta: api.TypeMeta{ID: "web"}, Endpoints: []string{"1.2.3.4:80"}}
	if err := r.UpdateEndpoints(ctx, first); err != nil {
		t.Fatal(err)
	}
	over := &api.Endpoints{TypeMeta: api.TypeMeta{ID: "web"}, Endpoints: []string{"5.6.7.8:80"}}
	if err := r.UpdateEndpoints(ctx, over); err != nil {
		t.Errorf("overwrite without a version: %v", err)
	}
	stale := &api.Endpoints{TypeMeta: api.TypeMeta{ID: "web", ResourceVersion: first.ResourceVersion}}
	if err := r.UpdateEndpoints(ctx, stale); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v", err)
	}
	current := &api.Endpoints{TypeMeta: api.TypeMeta{ID: "web", ResourceVersion: over.ResourceVersion}}
	if err := r.UpdateEndpoints(ctx, current); err != nil {
		t.Errorf("update at the current version: %v", err)
	}
}

func TestListMinionsFillsBothLists(t *testing.T) {
	r, fake := newFakeRegistry(t)
	fake.ExpectNotFoundGet("/registry/minions/m1")
	if err := r.CreateMinion(ctx, &api.Minion{TypeMeta: api.TypeMeta{ID: "m1"}}); err != nil {
		t.Fatal(err)
	}
	fake.Data["/registry/minions"] = tools.EtcdResponseWithError{R: &etcd.Response{Node: &etcd.Node{Dir: true, Nodes: []*etcd.Node{
		fake.Data["/registry/minions/m1"].R.Node,
	}}}}
	list, err := r.ListMinions(ctx)
	if err != nil || len(list.Items) != 1 || len(list.Minions) != 1 || list.Minions[0].ID != "m1" {
		t.Errorf("got %+v, %v", list, err)
	}
}

func TestWatchServicesRefusesWhat2014RefusedWithA400(t *testing.T) {
	r, _ := newFakeRegistry(t)
	cases := []struct {
		name         string
		label, field labels.Selector
	}{
		{"label selector", labels.Set{"a": "b"}.AsSelector(), labels.Everything()},
		{"unknown field", labels.Everything(), labels.Set{"Port": "80"}.AsSelector()},
		{"negated id", labels.Everything(), mustParse(t, "ID!=web")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := r.WatchServices(ctx, c.label, c.field, 0)
			registrytest.ExpectCode(t, "watch", err, 400)
			_, err = r.WatchEndpoints(ctx, c.label, c.field, 0)
			registrytest.ExpectCode(t, "watch endpoints", err, 400)
		})
	}
}

func mustParse(t *testing.T, s string) labels.Selector {
	sel, err := labels.ParseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func TestWatchServicesByIDWatchesOneKey(t *testing.T) {
	r, fake := newFakeRegistry(t)
	fake.ExpectNotFoundGet("/registry/services/specs/web")
	w, err := r.WatchServices(ctx, labels.Everything(), labels.Set{"ID": "web"}.AsSelector(), 0)
	if err != nil {
		t.Fatal(err)
	}
	fake.WaitForWatchCompletion()
	w.Stop()
	fake.Lock()
	defer fake.Unlock()
	last := fake.Actions[len(fake.Actions)-1]
	if last.Action != "watch" || last.Key != "/registry/services/specs/web" {
		t.Errorf("last action %+v", last)
	}
}
