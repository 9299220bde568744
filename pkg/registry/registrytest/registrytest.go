package registrytest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// NewHelper returns an EtcdHelper on an embedded etcd member of the
// test's own, so that each test starts from nothing. The member stops
// when t ends, after its client's connections are closed.
func NewHelper(t testing.TB) tools.EtcdHelper {
	t.Helper()
	member := etcdtest.New(t)
	t.Cleanup(tools.CloseIdleConnections)
	return tools.EtcdHelper{Client: tools.NewEtcdClient([]string{member.ClientURL()})}
}

// Ctx is the context of every request in the tests: the default
// namespace, as the 2014 apiserver used for everything.
func Ctx() api.Context {
	return api.NewDefaultContext()
}

// Await waits for the result of an asynchronous REST call: Await(rest.Create(ctx, obj)).
// A Status of failure comes back as the error it stands for.
func Await(ch <-chan api.Object, err error) (api.Object, error) {
	if err != nil {
		return nil, err
	}
	select {
	case obj := <-ch:
		if status, ok := obj.(*api.Status); ok && status.Status == api.StatusFailure {
			return nil, apierrors.FromObject(status)
		}
		return obj, nil
	case <-time.After(30 * time.Second):
		return nil, errors.New("no result from the asynchronous call within 30 s")
	}
}

// ExpectCode fails t unless err carries the HTTP code want (0: no error).
func ExpectCode(t testing.TB, what string, err error, want int) {
	t.Helper()
	got := apierrors.CodeOf(err)
	if err != nil && got == 0 {
		got = 500
	}
	if got != want {
		t.Errorf("%s: got code %d (%v), want %d", what, got, err, want)
	}
}

func manifest() api.ContainerManifest {
	return api.ContainerManifest{
		Version:    "v1beta1",
		Containers: []api.Container{{Name: "nginx", Image: "dockerfile/nginx", Ports: []api.Port{{ContainerPort: 80}}}},
	}
}

// ValidPod returns a pod that passes validation, labelled name=<label>.
func ValidPod(id, label string) *api.Pod {
	return &api.Pod{
		TypeMeta:     api.TypeMeta{ID: id},
		Labels:       map[string]string{"name": label},
		DesiredState: api.PodState{Manifest: manifest()},
	}
}

// ValidController returns a controller of replicas pods labelled
// name=<label>, itself labelled app=<label>.
func ValidController(id, label string, replicas int) *api.ReplicationController {
	return &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: id},
		Labels:   map[string]string{"app": label},
		DesiredState: api.ReplicationControllerState{
			Replicas:        replicas,
			ReplicaSelector: map[string]string{"name": label},
			PodTemplate: api.PodTemplate{
				Labels:       map[string]string{"name": label},
				DesiredState: api.PodState{Manifest: manifest()},
			},
		},
	}
}

// ValidService returns a service on port 80 selecting name=<label>.
func ValidService(id, label string) *api.Service {
	return &api.Service{
		TypeMeta: api.TypeMeta{ID: id},
		Port:     80,
		Labels:   map[string]string{"app": label},
		Selector: map[string]string{"name": label},
	}
}

// HostileIDs are ids that must never become part of an etcd key: they
// climb out of a resource's directory, hide a separator, or are not names
// at all.
func HostileIDs() []string {
	return []string{
		"../controllers/evil",
		"..",
		".",
		"a/b",
		"/abs",
		"%2F",
		"a%2Fb",
		"with space",
		"tab\there",
		"new\nline",
		strings.Repeat("a", 300),
		"naïve",
		"日本",
		"UPPER/../x",
		"x?recursive=true",
		"x#frag",
	}
}
