package service

import (
	"testing"

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
	return NewREST(registry), registry
}

func TestCreateValidatesAndAcceptsAnExternalLoadBalancerFlag(t *testing.T) {
	rest, _ := newStorage(t)
	in := rt.ValidService("frontend", "web")
	in.CreateExternalLoadBalancer = true
	svc := rt.Create(t, rest, in)
	if !svc.CreateExternalLoadBalancer || svc.Protocol != api.ProtocolTCP || svc.UID == "" || svc.Namespace != "default" || svc.ResourceVersion == 0 {
		t.Errorf("created %+v", svc)
	}
	noSelector := rt.ValidService("b", "x")
	noSelector.Selector = nil
	badPort := rt.ValidService("c", "x")
	badPort.Port = 70000
	cases := []struct {
		name string
		obj  api.Object
		code int
	}{
		{"no selector", noSelector, 422},
		{"bad port", badPort, 422},
		{"id longer than 24", rt.ValidService("abcdefghijklmnopqrstuvwxy", "x"), 422},
		{"an id in use", rt.ValidService("frontend", "x"), 409},
		{"another kind", &api.Pod{}, 400},
	}
	for _, c := range cases {
		_, err := rt.Await(rest.Create(ctx, c.obj))
		rt.ExpectCode(t, c.name, err, c.code)
	}
	rt.ExpectHostileIDsRefused(t, rest, func(id string) api.Object { return rt.ValidService(id, "x") })
}

func TestDeleteAlsoDeletesTheEndpoints(t *testing.T) {
	rest, registry := newStorage(t)
	rt.Create(t, rest, rt.ValidService("frontend", "web"))
	if err := registry.UpdateEndpoints(ctx, &api.Endpoints{TypeMeta: api.TypeMeta{ID: "frontend"}, Endpoints: []string{"1.2.3.4:80"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Await(rest.Delete(ctx, "frontend")); err != nil {
		t.Fatal(err)
	}
	_, err := registry.GetEndpoints(ctx, "frontend")
	rt.ExpectCode(t, "endpoints after the service's delete", err, 404)
	rt.ExpectGone(t, rest, "frontend")
}

func TestListByLabelAndID(t *testing.T) {
	rest, _ := newStorage(t)
	rt.Create(t, rest, rt.ValidService("frontend", "web"))
	rt.Create(t, rest, rt.ValidService("backend", "db"))
	cases := []struct {
		label, field labels.Selector
		want         int
	}{
		{labels.Everything(), labels.Everything(), 2},
		{labels.Set{"app": "db"}.AsSelector(), labels.Everything(), 1},
		{labels.Everything(), labels.Set{"ID": "frontend"}.AsSelector(), 1},
	}
	for _, c := range cases {
		obj, err := rest.List(ctx, c.label, c.field)
		if err != nil || len(obj.(*api.ServiceList).Items) != c.want {
			t.Errorf("%v %v: %v, %+v", c.label, c.field, err, obj)
		}
	}
	_, err := rest.List(ctx, labels.Everything(), labels.Set{"Port": "80"}.AsSelector())
	rt.ExpectCode(t, "unknown field", err, 400)
}

func TestUpdate(t *testing.T) {
	rest, _ := newStorage(t)
	svc := rt.Create(t, rest, rt.ValidService("frontend", "web"))
	first := svc.ResourceVersion
	svc.Port = 8080
	obj, err := rt.Await(rest.Update(ctx, svc))
	if err != nil || obj.(*api.Service).Port != 8080 || obj.(*api.Service).ResourceVersion <= first {
		t.Fatalf("update: %v, %+v", err, obj)
	}
	stale := rt.ValidService("frontend", "web")
	stale.ResourceVersion = first
	_, err = rt.Await(rest.Update(ctx, stale))
	rt.ExpectCode(t, "stale update", err, 409)
	_, err = rt.Await(rest.Update(ctx, rt.ValidService("frontend", "web")))
	rt.ExpectCode(t, "update without resourceVersion of an existing service", err, 409)
	if _, err := rt.Await(rest.Update(ctx, rt.ValidService("fresh", "web"))); err != nil {
		t.Errorf("update without resourceVersion of a missing service creates it, as in 2014: %v", err)
	}
}

func TestWatchOneServiceByID(t *testing.T) {
	rest, _ := newStorage(t)
	rt.Create(t, rest, rt.ValidService("backend", "db"))
	svc := rt.Create(t, rest, rt.ValidService("frontend", "web"))
	w, err := rest.Watch(ctx, labels.Everything(), labels.Set{"ID": "frontend"}.AsSelector(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w)
	if e := watchtest.Next(t, w); e.Type != watch.Added || e.Object.(*api.Service).ID != "frontend" {
		t.Fatalf("replay: %v %+v", e.Type, e.Object)
	}
	svc.Port = 81
	if _, err := rt.Await(rest.Update(ctx, svc)); err != nil {
		t.Fatal(err)
	}
	if e := watchtest.Next(t, w); e.Type != watch.Modified || e.Object.(*api.Service).Port != 81 {
		t.Fatalf("update: %v %+v", e.Type, e.Object)
	}
	_, err = rest.Watch(ctx, labels.Set{"app": "web"}.AsSelector(), labels.Everything(), 0)
	rt.ExpectCode(t, "label selector", err, 400)
	_, err = rest.Watch(ctx, labels.Everything(), labels.Set{"ID": "../controllers/x"}.AsSelector(), 0)
	rt.ExpectCode(t, "hostile id", err, 400)
}
