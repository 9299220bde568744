package client

import (
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

func TestFakeRecordsEveryCallUnderItsV04Name(t *testing.T) {
	ctx := api.NewDefaultContext()
	all := labels.Everything()
	pod := &api.Pod{TypeMeta: api.TypeMeta{ID: "p"}}
	rc := &api.ReplicationController{TypeMeta: api.TypeMeta{ID: "rc"}}
	svc := &api.Service{TypeMeta: api.TypeMeta{ID: "s"}}
	ep := &api.Endpoints{TypeMeta: api.TypeMeta{ID: "s"}}
	binding := &api.Binding{PodID: "p", Host: "m"}
	minion := &api.Minion{TypeMeta: api.TypeMeta{ID: "m"}}
	fake := &Fake{Watch: watch.NewFake()}

	fake.ListPods(ctx, all)
	fake.GetPod(ctx, "p")
	fake.DeletePod(ctx, "p")
	fake.CreatePod(ctx, pod)
	fake.UpdatePod(ctx, pod)
	fake.WatchPods(ctx, all, all, 1)
	fake.CreateBinding(ctx, binding)
	fake.ListReplicationControllers(ctx, all)
	fake.GetReplicationController(ctx, "rc")
	fake.CreateReplicationController(ctx, rc)
	fake.UpdateReplicationController(ctx, rc)
	fake.DeleteReplicationController(ctx, "rc")
	fake.WatchReplicationControllers(ctx, all, all, 2)
	fake.ListServices(ctx, all)
	fake.GetService(ctx, "s")
	fake.CreateService(ctx, svc)
	fake.UpdateService(ctx, svc)
	fake.DeleteService(ctx, "s")
	fake.WatchServices(ctx, all, all, 3)
	fake.ListEndpoints(ctx, all)
	fake.GetEndpoints(ctx, "s")
	fake.CreateEndpoints(ctx, ep)
	fake.UpdateEndpoints(ctx, ep)
	fake.WatchEndpoints(ctx, all, all, 4)
	fake.ServerVersion()
	fake.ListMinions()
	fake.CreateMinion(minion)
	fake.DeleteMinion("m")

	want := []FakeAction{
		{"list-pods", nil}, {"get-pod", "p"}, {"delete-pod", "p"}, {"create-pod", pod},
		{"update-pod", "p"}, {"watch-pods", uint64(1)}, {"create-binding", binding},
		{"list-controllers", nil}, {"get-controller", "rc"}, {"create-controller", rc},
		{"update-controller", rc}, {"delete-controller", "rc"}, {"watch-controllers", uint64(2)},
		{"list-services", nil}, {"get-service", "s"}, {"create-service", svc},
		{"update-service", svc}, {"delete-service", "s"}, {"watch-services", uint64(3)},
		{"list-endpoints", nil}, {"get-endpoints", "s"}, {"create-endpoints", ep},
		{"update-endpoints", ep}, {"watch-endpoints", uint64(4)},
		{"get-version", nil}, {"list-minions", nil}, {"create-minion", minion}, {"delete-minion", "m"},
	}
	got := fake.Actions()
	if len(got) != len(want) {
		t.Fatalf("got %d actions, want %d: %#v", len(got), len(want), got)
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("action %d: got %#v, want %#v", i, got[i], want[i])
		}
	}
}

func TestFakeAnswersAreCopiesTheCallerMayChange(t *testing.T) {
	fake := &Fake{Ctrl: api.ReplicationController{
		DesiredState: api.ReplicationControllerState{
			Replicas: 2,
			PodTemplate: api.PodTemplate{DesiredState: api.PodState{Manifest: api.ContainerManifest{
				Containers: []api.Container{{Image: "fooImage:1"}},
			}}},
		},
	}}
	got, _ := fake.GetReplicationController(api.NewDefaultContext(), "foo")
	got.DesiredState.Replicas = 9
	got.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0].Image = "fooImage:2"
	if fake.Ctrl.DesiredState.Replicas != 2 || fake.Ctrl.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0].Image != "fooImage:1" {
		t.Errorf("changing the answer changed the canned value: %#v", fake.Ctrl)
	}
}

func TestFakeReturnsErrFromEveryCall(t *testing.T) {
	boom := errors.New("boom")
	fake := &Fake{Err: boom, Watch: watch.NewFake()}
	ctx := api.NewDefaultContext()
	calls := map[string]func() error{
		"ListPods":    func() error { _, err := fake.ListPods(ctx, nil); return err },
		"CreatePod":   func() error { _, err := fake.CreatePod(ctx, &api.Pod{}); return err },
		"DeletePod":   func() error { return fake.DeletePod(ctx, "x") },
		"GetRC":       func() error { _, err := fake.GetReplicationController(ctx, "x"); return err },
		"WatchRCs":    func() error { _, err := fake.WatchReplicationControllers(ctx, nil, nil, 0); return err },
		"ListMinions": func() error { _, err := fake.ListMinions(); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			if err := call(); err != boom {
				t.Errorf("got %v", err)
			}
		})
	}
}

func TestFakeWatchWithoutAWatcherFails(t *testing.T) {
	fake := &Fake{}
	w, err := fake.WatchReplicationControllers(api.NewDefaultContext(), nil, nil, 0)
	if w != nil || err == nil {
		t.Errorf("got %v, %v", w, err)
	}
}

func TestFakeLooksUpGetsByID(t *testing.T) {
	fake := &Fake{Pods: api.PodList{Items: []api.Pod{{TypeMeta: api.TypeMeta{ID: "a"}}, {TypeMeta: api.TypeMeta{ID: "b"}, Labels: map[string]string{"x": "y"}}}}}
	pod, _ := fake.GetPod(api.NewDefaultContext(), "b")
	if pod.ID != "b" || pod.Labels["x"] != "y" {
		t.Errorf("got %#v", pod)
	}
	missing, _ := fake.GetPod(api.NewDefaultContext(), "zzz")
	if missing.ID != "" {
		t.Errorf("got %#v for a missing pod", missing)
	}
}

func TestFakeIsSafeForConcurrentUse(t *testing.T) {
	fake := &Fake{Pods: api.PodList{Items: []api.Pod{{TypeMeta: api.TypeMeta{ID: "a"}}}}}
	const goroutines = 200
	var wg sync.WaitGroup
	for i := 0; i < goroutines; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := api.NewDefaultContext()
			fake.CreatePod(ctx, &api.Pod{Labels: map[string]string{"name": "nginx"}})
			fake.ListPods(ctx, nil)
			_ = fake.Actions()
		}()
	}
	wg.Wait()
	if n := len(fake.Actions()); n != 2*goroutines {
		t.Errorf("recorded %d actions, want %d", n, 2*goroutines)
	}
	fake.ClearActions()
	if n := len(fake.Actions()); n != 0 {
		t.Errorf("ClearActions left %d", n)
	}
}

func TestControllerHasDesiredReplicasCountsMatchingPods(t *testing.T) {
	twoPods := api.PodList{Items: []api.Pod{{TypeMeta: api.TypeMeta{ID: "a"}}, {TypeMeta: api.TypeMeta{ID: "b"}}}}
	cases := []struct {
		name     string
		replicas int
		err      error
		want     bool
	}{
		{"equal", 2, nil, true},
		{"fewer pods than wanted", 3, nil, false},
		{"more pods than wanted", 1, nil, false},
		{"list failure", 2, errors.New("down"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := &Fake{Pods: twoPods, Err: tc.err}
			rc := api.ReplicationController{DesiredState: api.ReplicationControllerState{
				Replicas: tc.replicas, ReplicaSelector: map[string]string{"name": "nginx"},
			}}
			ok, err := ControllerHasDesiredReplicas(fake, rc)()
			if ok != tc.want || err != tc.err {
				t.Errorf("got %v, %v", ok, err)
			}
			if actions := fake.Actions(); len(actions) != 1 || actions[0].Action != "list-pods" {
				t.Errorf("got actions %#v", actions)
			}
		})
	}
}
