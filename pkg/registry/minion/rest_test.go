package minion

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

var ctx = rt.Ctx()

func minion(id string) *api.Minion {
	return &api.Minion{TypeMeta: api.TypeMeta{ID: id}, HostIP: "10.0.0.1"}
}

func TestMinionsAreCreatedListedAndDeletedButNeverUpdated(t *testing.T) {
	rest := NewREST(etcd.NewRegistry(rt.NewHelper(t)))
	obj, err := rt.Await(rest.Create(ctx, minion("node-1")))
	if err != nil {
		t.Fatal(err)
	}
	if m := obj.(*api.Minion); m.ResourceVersion == 0 || m.UID == "" || m.CreationTimestamp.IsZero() {
		t.Errorf("created %+v", m)
	}
	if _, err := rt.Await(rest.Create(ctx, minion("node-2"))); err != nil {
		t.Fatal(err)
	}
	_, err = rt.Await(rest.Create(ctx, minion("node-1")))
	rt.ExpectCode(t, "second create", err, 409)

	obj, err = rest.List(ctx, labels.Everything(), labels.Everything())
	list := obj.(*api.MinionList)
	if err != nil || len(list.Items) != 2 || len(list.Minions) != 2 {
		t.Errorf("list: %v, %+v", err, list)
	}
	_, err = rt.Await(rest.Update(ctx, minion("node-1")))
	rt.ExpectCode(t, "update", err, 405)

	if _, err := rt.Await(rest.Delete(ctx, "node-1")); err != nil {
		t.Fatal(err)
	}
	rt.ExpectGone(t, rest, "node-1")
}

func TestInvalidMinionsAndIDsAreRefused(t *testing.T) {
	rest := NewREST(etcd.NewRegistry(rt.NewHelper(t)))
	badIP := minion("node-1")
	badIP.HostIP = "not-an-ip"
	_, err := rt.Await(rest.Create(ctx, badIP))
	rt.ExpectCode(t, "bad hostIP", err, 422)
	_, err = rt.Await(rest.Create(ctx, minion("")))
	rt.ExpectCode(t, "no id", err, 422)
	_, err = rt.Await(rest.Create(ctx, &api.Pod{}))
	rt.ExpectCode(t, "another kind", err, 400)
	rt.ExpectHostileIDsRefused(t, rest, func(id string) api.Object { return minion(id) })
}
