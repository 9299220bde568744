package kubecfg

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

func actionNames(actions []client.FakeAction) []string {
	names := make([]string, len(actions))
	for i, a := range actions {
		names[i] = a.Action
	}
	return names
}

func expectActions(t *testing.T, fake *client.Fake, want ...client.FakeAction) []client.FakeAction {
	t.Helper()
	got := fake.Actions()
	if len(got) != len(want) {
		t.Fatalf("got actions %v, want %d: %#v", actionNames(got), len(want), want)
	}
	for i := range want {
		if want[i].Value == nil && got[i].Action == want[i].Action {
			continue
		}
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("action %d: got %#v, want %#v", i, got[i], want[i])
		}
	}
	return got
}

func twoPods() api.PodList {
	return api.PodList{Items: []api.Pod{
		{TypeMeta: api.TypeMeta{ID: "pod-1"}},
		{TypeMeta: api.TypeMeta{ID: "pod-2"}},
	}}
}

// shortPolls makes rollingupdate check the pod count every millisecond.
func shortPolls(t *testing.T) {
	interval, timeout := rollingUpdatePollInterval, rollingUpdateTimeout
	rollingUpdatePollInterval, rollingUpdateTimeout = time.Millisecond, 30*time.Second
	t.Cleanup(func() { rollingUpdatePollInterval, rollingUpdateTimeout = interval, timeout })
}

func TestRollingUpdateDeletesEachPodThenWaitsForTheCountToReturn(t *testing.T) {
	shortPolls(t)
	fake := &client.Fake{Pods: twoPods()}
	var out bytes.Buffer
	if err := Update(api.NewDefaultContext(), "foo", fake, 0, "", &out); err != nil {
		t.Fatal(err)
	}
	want := "foo: deleting its 2 pods one by one, 0s apart; the controller replaces each\n" +
		"foo: deleted pod pod-1 (1 of 2)\n" +
		"foo: deleted pod pod-2 (2 of 2)\n" +
		"foo: waiting until 2 pods match again\n" +
		"foo: 2 of 2 pods again; rolling update done\n"
	if out.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", out.String(), want)
	}
	expectActions(t, fake,
		client.FakeAction{Action: "get-controller", Value: "foo"},
		client.FakeAction{Action: "list-pods"},
		client.FakeAction{Action: "delete-pod", Value: "pod-1"},
		client.FakeAction{Action: "delete-pod", Value: "pod-2"},
		client.FakeAction{Action: "list-pods"},
	)
}

func TestRollingUpdateWithNoPodsOnlyLooks(t *testing.T) {
	fake := &client.Fake{}
	if err := Update(api.NewDefaultContext(), "foo", fake, 0, "", io.Discard); err != nil {
		t.Fatal(err)
	}
	expectActions(t, fake,
		client.FakeAction{Action: "get-controller", Value: "foo"},
		client.FakeAction{Action: "list-pods"},
	)
}

func TestRollingUpdateWithAnImageUpdatesTheTemplateFirst(t *testing.T) {
	shortPolls(t)
	fake := &client.Fake{
		Pods: twoPods(),
		Ctrl: api.ReplicationController{DesiredState: api.ReplicationControllerState{
			PodTemplate: api.PodTemplate{DesiredState: api.PodState{Manifest: api.ContainerManifest{
				Containers: []api.Container{{Image: "fooImage:1"}},
			}}},
		}},
	}
	if err := Update(api.NewDefaultContext(), "foo", fake, 0, "fooImage:2", io.Discard); err != nil {
		t.Fatal(err)
	}
	got := expectActions(t, fake,
		client.FakeAction{Action: "get-controller", Value: "foo"},
		client.FakeAction{Action: "update-controller"},
		client.FakeAction{Action: "list-pods"},
		client.FakeAction{Action: "delete-pod", Value: "pod-1"},
		client.FakeAction{Action: "delete-pod", Value: "pod-2"},
		client.FakeAction{Action: "list-pods"},
	)
	sent := got[1].Value.(*api.ReplicationController)
	if image := sent.DesiredState.PodTemplate.DesiredState.Manifest.Containers[0].Image; image != "fooImage:2" {
		t.Errorf("updated template has image %q", image)
	}
}

func TestRollingUpdateOfATemplateWithoutContainersFailsCleanly(t *testing.T) {
	fake := &client.Fake{}
	if err := Update(api.NewDefaultContext(), "foo", fake, 0, "img", io.Discard); err == nil {
		t.Error("want an error")
	}
	expectActions(t, fake, client.FakeAction{Action: "get-controller", Value: "foo"})
}

// losingPods answers two pods to the first list and one afterwards: a
// controller that does not replace what rollingupdate deleted.
type losingPods struct {
	*client.Fake
	lists int
}

func (l *losingPods) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	l.lists++
	pods := twoPods()
	if l.lists > 1 {
		pods.Items = pods.Items[:1]
	}
	return &pods, nil
}

func TestRollingUpdateGivesUpWhenThePodsDoNotComeBack(t *testing.T) {
	interval, timeout := rollingUpdatePollInterval, rollingUpdateTimeout
	rollingUpdatePollInterval, rollingUpdateTimeout = time.Millisecond, 20*time.Millisecond
	defer func() { rollingUpdatePollInterval, rollingUpdateTimeout = interval, timeout }()
	c := &losingPods{Fake: &client.Fake{}}
	var out bytes.Buffer
	err := Update(api.NewDefaultContext(), "foo", c, 0, "", &out)
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("got %v", err)
	}
	if !strings.Contains(out.String(), "foo: 1 of 2 pods\n") || strings.Contains(out.String(), "done") {
		t.Errorf("progress of a rolling update that never finishes:\n%s", out.String())
	}
	if c.lists < 2 {
		t.Errorf("listed %d times, want the initial list and at least one check", c.lists)
	}
}

func TestStopSetsReplicasToZero(t *testing.T) {
	fake := &client.Fake{Ctrl: api.ReplicationController{DesiredState: api.ReplicationControllerState{Replicas: 3}}}
	var out bytes.Buffer
	if err := StopController(api.NewDefaultContext(), "name", fake, &out); err != nil {
		t.Fatal(err)
	}
	got := expectActions(t, fake,
		client.FakeAction{Action: "get-controller", Value: "name"},
		client.FakeAction{Action: "update-controller"},
	)
	if r := got[1].Value.(*api.ReplicationController).DesiredState.Replicas; r != 0 {
		t.Errorf("sent replicas %d", r)
	}
	if !strings.Contains(out.String(), "replicas: 0") {
		t.Errorf("stop should print the stored controller as YAML, printed %q", out.String())
	}
}

func TestResizeReadsThenWritesTheNewCount(t *testing.T) {
	fake := &client.Fake{}
	var out bytes.Buffer
	if err := ResizeController(api.NewDefaultContext(), "name", 17, fake, &out); err != nil {
		t.Fatal(err)
	}
	got := expectActions(t, fake,
		client.FakeAction{Action: "get-controller", Value: "name"},
		client.FakeAction{Action: "update-controller"},
	)
	if r := got[1].Value.(*api.ReplicationController).DesiredState.Replicas; r != 17 {
		t.Errorf("sent replicas %d", r)
	}
}

func TestRmDeletesOnlyAStoppedController(t *testing.T) {
	t.Run("stopped", func(t *testing.T) {
		fake := &client.Fake{}
		if err := DeleteController(api.NewDefaultContext(), "name", fake); err != nil {
			t.Fatal(err)
		}
		expectActions(t, fake,
			client.FakeAction{Action: "get-controller", Value: "name"},
			client.FakeAction{Action: "delete-controller", Value: "name"},
		)
	})
	t.Run("still running", func(t *testing.T) {
		fake := &client.Fake{Ctrl: api.ReplicationController{DesiredState: api.ReplicationControllerState{Replicas: 2}}}
		err := DeleteController(api.NewDefaultContext(), "name", fake)
		if err == nil || err.Error() != "controller has non-zero replicas (2), please stop it first" {
			t.Errorf("got %v", err)
		}
		expectActions(t, fake, client.FakeAction{Action: "get-controller", Value: "name"})
	})
}

func TestRunCreatesAControllerOfOneContainer(t *testing.T) {
	fake := &client.Fake{}
	var out bytes.Buffer
	if err := RunController(api.NewDefaultContext(), "foo/bar", "Name", 3, fake, "8080:80", -1, &out); err != nil {
		t.Fatal(err)
	}
	got := expectActions(t, fake, client.FakeAction{Action: "create-controller"})
	rc := got[0].Value.(*api.ReplicationController)
	want := &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "Name"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        3,
			ReplicaSelector: map[string]string{"simpleService": "Name"},
			PodTemplate: api.PodTemplate{
				DesiredState: api.PodState{Manifest: api.ContainerManifest{
					Version: "v1beta2",
					Containers: []api.Container{{
						Name:  "name",
						Image: "foo/bar",
						Ports: []api.Port{{HostPort: 8080, ContainerPort: 80}},
					}},
				}},
				Labels: map[string]string{"simpleService": "Name"},
			},
		},
	}
	if !reflect.DeepEqual(rc, want) {
		t.Errorf("got  %#v\nwant %#v", rc, want)
	}
	if !strings.Contains(out.String(), "id: Name") {
		t.Errorf("run should print the stored controller as YAML, printed %q", out.String())
	}
}

func TestRunWithAServicePortAlsoCreatesAServiceThatSelectsThePods(t *testing.T) {
	fake := &client.Fake{}
	var out bytes.Buffer
	if err := RunController(api.NewDefaultContext(), "foo/bar", "name", 3, fake, "", 8000, &out); err != nil {
		t.Fatal(err)
	}
	got := expectActions(t, fake, client.FakeAction{Action: "create-controller"}, client.FakeAction{Action: "create-service"})
	rc := got[0].Value.(*api.ReplicationController)
	svc := got[1].Value.(*api.Service)
	if svc.ID != "name" || svc.Port != 8000 {
		t.Errorf("got service %#v", svc)
	}
	if !reflect.DeepEqual(svc.Selector, rc.DesiredState.PodTemplate.Labels) {
		t.Errorf("service selector %v does not match the pod labels %v", svc.Selector, rc.DesiredState.PodTemplate.Labels)
	}
}

func TestRunRefusesBadInputBeforeCallingTheServer(t *testing.T) {
	cases := []struct {
		name, image, ctrl, ports string
		servicePort              int
	}{
		{"service name that is not a DNS label", "foo/bar", "Not_A_Label", "", 80},
		{"port spec missing the container port", "foo/bar", "name", "8080:", -1},
		{"port spec missing the host port", "foo/bar", "name", ":80", -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := &client.Fake{}
			if err := RunController(api.NewDefaultContext(), tc.image, tc.ctrl, 1, fake, tc.ports, tc.servicePort, &bytes.Buffer{}); err == nil {
				t.Error("want an error")
			}
			expectActions(t, fake)
		})
	}
}

func TestPortSpecsReadHostContainerPairsInOrder(t *testing.T) {
	good := []struct {
		spec string
		want []api.Port
	}{
		{"8080:80,8081:8081,443:444", []api.Port{{HostPort: 8080, ContainerPort: 80}, {HostPort: 8081, ContainerPort: 8081}, {HostPort: 443, ContainerPort: 444}}},
		{"80", []api.Port{{ContainerPort: 80}}},
		{"", []api.Port{}},
	}
	for _, tc := range good {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := portsFromString(tc.spec)
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v, %v; want %#v", got, err, tc.want)
			}
		})
	}
	for _, spec := range []string{"8080:", ":80", ":", "a:b", "1:2:3", "8080:0", "80,x"} {
		t.Run(spec, func(t *testing.T) {
			if got, err := portsFromString(spec); err == nil {
				t.Errorf("want an error, got %#v", got)
			}
		})
	}
}

func TestLoadAuthInfoReadsTheFileOrPromptsAndWritesIt(t *testing.T) {
	dir := t.TempDir()
	t.Run("valid file", func(t *testing.T) {
		path := filepath.Join(dir, "valid")
		os.WriteFile(path, []byte(`{"user": "user", "password": "pass"}`), 0o600)
		got, err := LoadAuthInfo(path, nil, &bytes.Buffer{})
		if err != nil || *got != (AuthInfo{User: "user", Password: "pass"}) {
			t.Errorf("got %#v, %v", got, err)
		}
	})
	t.Run("empty file", func(t *testing.T) {
		path := filepath.Join(dir, "empty")
		os.WriteFile(path, nil, 0o600)
		if _, err := LoadAuthInfo(path, nil, &bytes.Buffer{}); err == nil {
			t.Error("want an error for an empty file")
		}
	})
	t.Run("missing file", func(t *testing.T) {
		path := filepath.Join(dir, "missing")
		var prompts bytes.Buffer
		got, err := LoadAuthInfo(path, strings.NewReader("user\npass"), &prompts)
		if err != nil || *got != (AuthInfo{User: "user", Password: "pass"}) {
			t.Errorf("got %#v, %v", got, err)
		}
		if prompts.String() != "Please enter Username: Please enter Password: " {
			t.Errorf("prompted %q", prompts.String())
		}
		again, err := LoadAuthInfo(path, nil, &bytes.Buffer{})
		if err != nil || *again != *got {
			t.Errorf("the answers were not saved: %#v, %v", again, err)
		}
		if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
			t.Errorf("auth file mode: %v, %v", info.Mode(), err)
		}
	})
}

// conflicting fails the first conflicts updates with a 409, as a write of
// today's manager between resize's read and write makes the apiserver do.
type conflicting struct {
	*client.Fake
	conflicts, updates int
}

func (c *conflicting) UpdateReplicationController(ctx api.Context, rc *api.ReplicationController) (*api.ReplicationController, error) {
	c.updates++
	if c.updates <= c.conflicts {
		return nil, apierrors.NewConflict("replicationController", rc.ID, errors.New("101: Compare failed"))
	}
	return c.Fake.UpdateReplicationController(ctx, rc)
}

func TestResizeReadsAndWritesAgainAfterAConflict(t *testing.T) {
	c := &conflicting{Fake: &client.Fake{}, conflicts: 2}
	var out bytes.Buffer
	if err := ResizeController(api.NewDefaultContext(), "foo", 4, c, &out); err != nil {
		t.Fatal(err)
	}
	if c.updates != 3 || !strings.Contains(out.String(), "replicas: 4") {
		t.Errorf("%d updates, printed\n%s", c.updates, out.String())
	}

	c = &conflicting{Fake: &client.Fake{}, conflicts: 1000}
	err := StopController(api.NewDefaultContext(), "foo", c, io.Discard)
	if !apierrors.IsConflict(err) || c.updates != resizeAttempts {
		t.Errorf("a controller that always changes: %v after %d updates, want a conflict after %d", err, c.updates, resizeAttempts)
	}
}
