package registrytest

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/prometheus/client_golang/prometheus"
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

// Storage is what the shared checks below ask of a resource's REST
// storage (apiserver.RESTStorage).
type Storage interface {
	Get(ctx api.Context, id string) (api.Object, error)
	Delete(ctx api.Context, id string) (<-chan api.Object, error)
	Create(ctx api.Context, obj api.Object) (<-chan api.Object, error)
}

// ExpectGone fails t unless id, just deleted, is gone: a Get and a second
// Delete each answer 404.
func ExpectGone(t testing.TB, rest Storage, id string) {
	t.Helper()
	_, err := rest.Get(Ctx(), id)
	ExpectCode(t, "get after delete", err, 404)
	_, err = Await(rest.Delete(Ctx(), id))
	ExpectCode(t, "second delete", err, 404)
}

// ExpectHostileIDsRefused fails t unless every one of HostileIDs is
// refused: as the id of a new object (newObj) with a 422, and by a Get and
// a Delete with a 400.
func ExpectHostileIDsRefused(t testing.TB, rest Storage, newObj func(id string) api.Object) {
	t.Helper()
	for _, id := range HostileIDs() {
		_, err := Await(rest.Create(Ctx(), newObj(id)))
		ExpectCode(t, "create "+id, err, 422)
		_, err = rest.Get(Ctx(), id)
		ExpectCode(t, "get "+id, err, 400)
		_, err = Await(rest.Delete(Ctx(), id))
		ExpectCode(t, "delete "+id, err, 400)
	}
}

// Create creates obj through rest and returns what was stored, failing t
// on an error.
func Create[T api.Object](t testing.TB, rest Storage, obj T) T {
	t.Helper()
	out, err := Await(rest.Create(Ctx(), obj))
	if err != nil {
		t.Fatalf("create %q: %v", obj.GetTypeMeta().ID, err)
	}
	return out.(T)
}

// MetricValue returns the sum of the series of the metric name in reg
// whose labels include want: their counts, gauges, or histograms' counts
// of observations.
func MetricValue(t testing.TB, reg prometheus.Gatherer, name string, want map[string]string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for _, family := range families {
		if family.GetName() != name {
			continue
		}
	series:
		for _, m := range family.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if have[k] != v {
					continue series
				}
			}
			switch {
			case m.Counter != nil:
				total += m.Counter.GetValue()
			case m.Gauge != nil:
				total += m.Gauge.GetValue()
			case m.Histogram != nil:
				total += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return total
}

// Working is the Status of a write the apiserver is still working on: a
// 202 naming the operation id to poll.
func Working(id string) *api.Status {
	return &api.Status{
		Status:  api.StatusWorking,
		Reason:  api.StatusReasonWorking,
		Details: &api.StatusDetails{ID: id, Kind: "operation"},
		Code:    http.StatusAccepted,
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
