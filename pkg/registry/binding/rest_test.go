package binding

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

var ctx = rt.Ctx()

func TestBindingSetsTheDesiredHostOnce(t *testing.T) {
	registry := etcd.NewRegistry(rt.NewHelper(t))
	rest := NewREST(registry)
	pod := rt.ValidPod("foo", "x")
	pod.Namespace = "default"
	if err := registry.CreatePod(ctx, pod); err != nil {
		t.Fatal(err)
	}
	obj, err := rt.Await(rest.Create(ctx, &api.Binding{PodID: "foo", Host: "m1"}))
	if err != nil || obj.(*api.Status).Status != api.StatusSuccess {
		t.Fatalf("bind: %v, %+v", err, obj)
	}
	got, _ := registry.GetPod(ctx, "foo")
	if got.DesiredState.Host != "m1" {
		t.Errorf("desired host = %q", got.DesiredState.Host)
	}
	if _, err := rt.Await(rest.Create(ctx, &api.Binding{PodID: "foo", Host: "m1"})); err != nil {
		t.Errorf("binding again to the same host: %v", err)
	}
	_, err = rt.Await(rest.Create(ctx, &api.Binding{PodID: "foo", Host: "m2"}))
	rt.ExpectCode(t, "bound elsewhere", err, 409)
	_, err = rt.Await(rest.Create(ctx, &api.Binding{PodID: "missing", Host: "m1"}))
	rt.ExpectCode(t, "missing pod", err, 404)
}

func TestBindingsAreValidatedAndOnlyPosted(t *testing.T) {
	rest := NewREST(etcd.NewRegistry(rt.NewHelper(t)))
	cases := []struct {
		name    string
		binding *api.Binding
	}{
		{"no pod", &api.Binding{Host: "m1"}},
		{"no host", &api.Binding{PodID: "foo"}},
		{"hostile pod", &api.Binding{PodID: "../controllers/x", Host: "m1"}},
		{"hostile host", &api.Binding{PodID: "foo", Host: "a/b"}},
	}
	for _, c := range cases {
		_, err := rt.Await(rest.Create(ctx, c.binding))
		rt.ExpectCode(t, c.name, err, 422)
	}
	_, err := rt.Await(rest.Create(ctx, &api.Pod{}))
	rt.ExpectCode(t, "another kind", err, 400)
	_, err = rest.Get(ctx, "foo")
	rt.ExpectCode(t, "get", err, 405)
	_, err = rest.List(ctx, labels.Everything(), labels.Everything())
	rt.ExpectCode(t, "list", err, 405)
	_, err = rt.Await(rest.Delete(ctx, "foo"))
	rt.ExpectCode(t, "delete", err, 405)
	_, err = rt.Await(rest.Update(ctx, &api.Binding{PodID: "foo", Host: "m1"}))
	rt.ExpectCode(t, "update", err, 405)
}
