package endpoint

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

func newStorage(t *testing.T) *REST {
	return NewREST(etcd.NewRegistry(rt.NewHelper(t)))
}

func endpoints(id string, eps ...string) *api.Endpoints {
	return &api.Endpoints{TypeMeta: api.TypeMeta{ID: id}, Endpoints: eps}
}

func TestCreateGetListUpdateDelete(t *testing.T) {
	rest := newStorage(t)
	obj, err := rt.Await(rest.Create(ctx, endpoints("web", "1.2.3.4:80")))
	if err != nil {
		t.Fatal(err)
	}
	created := obj.(*api.Endpoints)
	if created.ResourceVersion == 0 || created.UID == "" || created.Namespace != "default" {
		t.Errorf("created %+v", created)
	}
	// A second create replaces the first, as in 2014.
	if _, err := rt.Await(rest.Create(ctx, endpoints("web", "5.6.7.8:80"))); err != nil {
		t.Errorf("create over existing endpoints: %v", err)
	}
	got, err := rest.Get(ctx, "web")
	if err != nil || got.(*api.Endpoints).Endpoints[0] != "5.6.7.8:80" {
		t.Fatalf("get: %v, %+v", err, got)
	}

	update := got.(*api.Endpoints)
	update.Endpoints = []string{"9.9.9.9:80"}
	if _, err := rt.Await(rest.Update(ctx, update)); err != nil {
		t.Fatal(err)
	}
	stale := endpoints("web", "0.0.0.0:1")
	stale.ResourceVersion = created.ResourceVersion
	_, err = rt.Await(rest.Update(ctx, stale))
	rt.ExpectCode(t, "stale update", err, 409)
	if _, err := rt.Await(rest.Update(ctx, endpoints("web", "8.8.8.8:53"))); err != nil {
		t.Errorf("update without resourceVersion overwrites, as in 2014: %v", err)
	}

	list, err := rest.List(ctx, labels.Everything(), labels.Everything())
	if err != nil || len(list.(*api.EndpointsList).Items) != 1 {
		t.Errorf("list: %v, %+v", err, list)
	}
	_, err = rest.List(ctx, labels.Set{"a": "b"}.AsSelector(), labels.Everything())
	rt.ExpectCode(t, "list by label", err, 400)
	_, err = rest.List(ctx, labels.Everything(), labels.Set{"ID": "web"}.AsSelector())
	rt.ExpectCode(t, "list by field", err, 400)

	if _, err := rt.Await(rest.Delete(ctx, "web")); err != nil {
		t.Fatal(err)
	}
	rt.ExpectGone(t, rest, "web")
}

func TestInvalidEndpointsAndIDsAreRefused(t *testing.T) {
	rest := newStorage(t)
	cases := []struct {
		name string
		obj  api.Object
		code int
	}{
		{"no id", endpoints(""), 422},
		{"entry without port", endpoints("web", "1.2.3.4"), 422},
		{"another kind", &api.Service{}, 400},
	}
	for _, c := range cases {
		_, err := rt.Await(rest.Create(ctx, c.obj))
		rt.ExpectCode(t, c.name, err, c.code)
		_, err = rt.Await(rest.Update(ctx, c.obj))
		rt.ExpectCode(t, c.name+" (update)", err, c.code)
	}
	rt.ExpectHostileIDsRefused(t, rest, func(id string) api.Object { return endpoints(id) })
}

func TestWatchAllOrOne(t *testing.T) {
	rest := newStorage(t)
	if _, err := rt.Await(rest.Create(ctx, endpoints("web", "1.2.3.4:80"))); err != nil {
		t.Fatal(err)
	}
	all, err := rest.Watch(ctx, labels.Everything(), labels.Everything(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, all)
	one, err := rest.Watch(ctx, labels.Everything(), labels.Set{"ID": "db"}.AsSelector(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, one)
	if e := watchtest.Next(t, all); e.Type != watch.Added || e.Object.(*api.Endpoints).ID != "web" {
		t.Fatalf("all: %v %+v", e.Type, e.Object)
	}
	if _, err := rt.Await(rest.Create(ctx, endpoints("db", "1.2.3.5:5432"))); err != nil {
		t.Fatal(err)
	}
	if e := watchtest.Next(t, one); e.Type != watch.Added || e.Object.(*api.Endpoints).ID != "db" {
		t.Fatalf("one: %v %+v", e.Type, e.Object)
	}
	if e := watchtest.Next(t, all); e.Object.(*api.Endpoints).ID != "db" {
		t.Fatalf("all, second: %+v", e.Object)
	}
	_, err = rest.Watch(ctx, labels.Set{"a": "b"}.AsSelector(), labels.Everything(), 0)
	rt.ExpectCode(t, "label selector", err, 400)
}
