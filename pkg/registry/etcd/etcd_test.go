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

func TestGetPodFillsTheCurrentHostFromTheDesiredOne(t *testing.T) {
	r, fake := newFakeRegistry(t)
	pod := registrytest.ValidPod("foo", "x")
	pod.DesiredState.Host = "machine"
	index := store(t, fake, "/registry/pods/foo", pod)
	got, err := r.GetPod(ctx, "foo")
	if err != nil {
		t.Fatal(err)
	}
	if got.CurrentState.Host != "machine" || got.ResourceVersion != index {
		t.Errorf("got host %q at %d", got.CurrentState.Host, got.ResourceVersion)
	}
	pod.CurrentState.Host = "reported"
	store(t, fake, "/registry/pods/foo", pod)
	if got, _ := r.GetPod(ctx, "foo"); got.CurrentState.Host != "reported" {
		t.Errorf("a written current host was replaced: %q", got.CurrentState.Host)
	}
	fake.ExpectNotFoundGet("/registry/pods/bar")
	_, err = r.GetPod(ctx, "bar")
	if !apierrors.IsNotFound(err) || err.Error() != `pod "bar" not found` {
		t.Errorf("missing pod: %v", err)
	}
}

func TestCreatePodQueuesItForScheduling(t *testing.T) {
	r, fake := newFakeRegistry(t)
	pod := registrytest.ValidPod("foo", "x")
	pod.DesiredState.Host = "chosen-by-client"
	pod.CurrentState = api.PodState{Status: api.PodRunning, Host: "h"}
	if err := r.CreatePod(ctx, pod); err != nil {
		t.Fatal(err)
	}
	var stored api.Pod
	if err := api.DecodeInto([]byte(fake.Data["/registry/pods/foo"].R.Node.Value), &stored); err != nil {
		t.Fatal(err)
	}
	if stored.DesiredState.Host != "" || stored.DesiredState.Status != api.PodRunning ||
		stored.CurrentState.Host != "" || stored.CurrentState.Status != api.PodWaiting {
		t.Errorf("stored desired %+v current %+v", stored.DesiredState, stored.CurrentState)
	}
	if err := r.CreatePod(ctx, registrytest.ValidPod("foo", "x")); !apierrors.IsAlreadyExists(err) {
		t.Errorf("second create: %v", err)
	}
}

func TestUpdatePod(t *testing.T) {
	r, fake := newFakeRegistry(t)
	pod := registrytest.ValidPod("foo", "x")
	pod.UID = "uid-1"
	pod.DesiredState.Host = "machine"
	index := store(t, fake, "/registry/pods/foo", pod)

	update := registrytest.ValidPod("foo", "y")
	update.ResourceVersion = index
	update.DesiredState.Host = "elsewhere"
	update.CurrentState.Status = api.PodRunning
	if err := r.UpdatePod(ctx, update); err != nil {
		t.Fatal(err)
	}
	got, _ := r.GetPod(ctx, "foo")
	if got.DesiredState.Host != "machine" || got.UID != "uid-1" || got.Labels["name"] != "y" || got.CurrentState.Status != api.PodRunning {
		t.Errorf("after update: %+v", got)
	}

	stale := registrytest.ValidPod("foo", "z")
	stale.ResourceVersion = index
	if err := r.UpdatePod(ctx, stale); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v", err)
	}
	unversioned := registrytest.ValidPod("foo", "z")
	if err := r.UpdatePod(ctx, unversioned); !apierrors.IsConflict(err) {
		t.Errorf("update without resourceVersion: %v", err)
	}
	fake.ExpectNotFoundGet("/registry/pods/bar")
	if err := r.UpdatePod(ctx, registrytest.ValidPod("bar", "z")); !apierrors.IsNotFound(err) {
		t.Errorf("update of a missing pod: %v", err)
	}
}

func TestDeletePod(t *testing.T) {
	r, fake := newFakeRegistry(t)
	store(t, fake, "/registry/pods/foo", registrytest.ValidPod("foo", "x"))
	if err := r.DeletePod(ctx, "foo"); err != nil {
		t.Fatal(err)
	}
	if len(fake.DeletedKeys) != 1 || fake.DeletedKeys[0] != "/registry/pods/foo" {
		t.Errorf("deleted %v", fake.DeletedKeys)
	}
	if err := r.DeletePod(ctx, "foo"); !apierrors.IsNotFound(err) {
		t.Errorf("second delete: %v", err)
	}
}

func TestListPodsOfAnEmptyStoreIsAnEmptyList(t *testing.T) {
	r, fake := newFakeRegistry(t)
	fake.ExpectNotFoundGet("/registry/pods")
	list, err := r.ListPods(ctx, labels.Everything())
	if err != nil || list.Items == nil || len(list.Items) != 0 {
		t.Errorf("got %v, %v; want a non-nil empty list", list, err)
	}
}

func TestListPodsSelectsByLabel(t *testing.T) {
	r, fake := newFakeRegistry(t)
	fake.Data["/registry/pods"] = tools.EtcdResponseWithError{R: &etcd.Response{
		EtcdIndex: 9,
		Node: &etcd.Node{Dir: true, Nodes: []*etcd.Node{
			{Key: "/registry/pods/a", Value: encode(t, registrytest.ValidPod("a", "x")), ModifiedIndex: 1},
			{Key: "/registry/pods/b", Value: encode(t, registrytest.ValidPod("b", "y")), ModifiedIndex: 2},
		}},
	}}
	list, err := r.ListPods(ctx, labels.Set{"name": "y"}.AsSelector())
	if err != nil || len(list.Items) != 1 || list.Items[0].ID != "b" || list.ResourceVersion != 9 {
		t.Errorf("got %+v, %v", list, err)
	}
}

func encode(t *testing.T, obj api.Object) string {
	t.Helper()
	data, err := api.Encode(obj)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestApplyBinding(t *testing.T) {
	r, fake := newFakeRegistry(t)
	store(t, fake, "/registry/pods/foo", registrytest.ValidPod("foo", "x"))
	fake.ExpectNotFoundGet("/registry/pods/missing")
	if err := r.ApplyBinding(ctx, &api.Binding{PodID: "missing", Host: "m1"}); !apierrors.IsNotFound(err) {
		t.Errorf("binding a missing pod: %v", err)
	}
	if err := r.ApplyBinding(ctx, &api.Binding{PodID: "foo", Host: "m1"}); err != nil {
		t.Fatal(err)
	}
	if pod, _ := r.GetPod(ctx, "foo"); pod.DesiredState.Host != "m1" {
		t.Errorf("host = %q", pod.DesiredState.Host)
	}
	writes := len(fake.Actions)
	if err := r.ApplyBinding(ctx, &api.Binding{PodID: "foo", Host: "m1"}); err != nil {
		t.Errorf("binding again to the same host: %v", err)
	}
	for _, a := range fake.Actions[writes:] {
		if a.Action != "get" {
			t.Errorf("binding again wrote: %+v", a)
		}
	}
	err := r.ApplyBinding(ctx, &api.Binding{PodID: "foo", Host: "m2"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "m1") {
		t.Errorf("binding to another host: %v", err)
	}
}

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
