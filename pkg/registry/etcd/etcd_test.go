package etcd

import (
	"errors"
	"strings"
	"testing"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

func newFakeRegistry(t *testing.T) (*Registry, *tools.FakeEtcdClient) {
	fake := tools.NewFakeEtcdClient(t)
	fake.TestIndex = true
	return NewRegistry(tools.EtcdHelper{Client: fake}), fake
}

var ctx = registrytest.Ctx()

func store(t *testing.T, fake *tools.FakeEtcdClient, key string, obj api.Object) uint64 {
	t.Helper()
	data, err := api.Encode(obj)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := fake.Set(key, string(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Node.ModifiedIndex
}

func TestKeysFollowThe2014Layout(t *testing.T) {
	cases := []struct {
		make func(string) (string, error)
		id   string
		want string
	}{
		{makePodKey, "foo", "/registry/pods/foo"},
		{makeControllerKey, "nginxController", "/registry/controllers/nginxController"},
		{makeServiceKey, "frontend", "/registry/services/specs/frontend"},
		{makeServiceEndpointsKey, "frontend", "/registry/services/endpoints/frontend"},
		{makeMinionKey, "node-1", "/registry/minions/node-1"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			got, err := c.make(c.id)
			if err != nil || got != c.want {
				t.Errorf("got %q, %v", got, err)
			}
		})
	}
}

func TestHostileIDsAreRefusedBeforeEtcdIsAsked(t *testing.T) {
	r, fake := newFakeRegistry(t)
	for _, id := range registrytest.HostileIDs() {
		t.Run(id, func(t *testing.T) {
			calls := []struct {
				name string
				err  error
			}{
				{"get pod", second(r.GetPod(ctx, id))},
				{"delete pod", r.DeletePod(ctx, id)},
				{"update pod", r.UpdatePod(ctx, &api.Pod{TypeMeta: api.TypeMeta{ID: id}})},
				{"create pod", r.CreatePod(ctx, &api.Pod{TypeMeta: api.TypeMeta{ID: id}})},
				{"bind pod", r.ApplyBinding(ctx, &api.Binding{PodID: id, Host: "h"})},
				{"get controller", second(r.GetController(ctx, id))},
				{"delete controller", r.DeleteController(ctx, id)},
				{"update controller", r.UpdateController(ctx, &api.ReplicationController{TypeMeta: api.TypeMeta{ID: id}})},
				{"get service", second(r.GetService(ctx, id))},
				{"delete service", r.DeleteService(ctx, id)},
				{"get endpoints", second(r.GetEndpoints(ctx, id))},
				{"update endpoints", r.UpdateEndpoints(ctx, &api.Endpoints{TypeMeta: api.TypeMeta{ID: id}})},
				{"watch one service", second(r.WatchServices(ctx, labels.Everything(), labels.Set{"ID": id}.AsSelector(), 0))},
				{"get minion", second(r.GetMinion(ctx, id))},
				{"delete minion", r.DeleteMinion(ctx, id)},
			}
			for _, c := range calls {
				if !apierrors.IsBadRequest(c.err) || !strings.Contains(c.err.Error(), id) {
					t.Errorf("%s: %v, want a 400 naming the id", c.name, c.err)
				}
			}
			if len(fake.Actions) != 0 {
				t.Errorf("etcd was asked %+v", fake.Actions)
			}
		})
	}
}

func second[T any](_ T, err error) error { return err }

func TestEtcdFailuresBecomeServiceUnavailableOrInternalErrors(t *testing.T) {
	cases := []struct {
		name string
		err  error
		code int
	}{
		{"unreachable", &etcd.EtcdError{ErrorCode: etcd.ErrCodeEtcdNotReachable}, 503},
		{"anything else", errors.New("disk on fire"), 500},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, fake := newFakeRegistry(t)
			fake.Data["/registry/pods/foo"] = tools.EtcdResponseWithError{E: c.err}
			fake.Data["/registry/pods"] = tools.EtcdResponseWithError{E: c.err}
			_, err := r.GetPod(ctx, "foo")
			registrytest.ExpectCode(t, "get", err, c.code)
			_, err = r.ListPods(ctx, labels.Everything())
			registrytest.ExpectCode(t, "list", err, c.code)
			fake.Err = c.err
			registrytest.ExpectCode(t, "create", r.CreatePod(ctx, registrytest.ValidPod("bar", "x")), c.code)
		})
	}
}
