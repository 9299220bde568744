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
