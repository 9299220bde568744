package pod

import (
	"regexp"
	"sort"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

func newStorage(t *testing.T) (*REST, *etcd.Registry) {
	registry := etcd.NewRegistry(rt.NewHelper(t))
	return NewREST(registry, nil), registry
}

var ctx = rt.Ctx()

var timeUUID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-1[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func TestCreateNamesAnAnonymousPodByATimeBasedUUIDAndQueuesIt(t *testing.T) {
	rest, _ := newStorage(t)
	in := rt.ValidPod("", "x")
	in.DesiredState.Host = "picked-by-client"
	in.DesiredState.Manifest.ID = "ignored"
	in.OwnerReferences = []api.OwnerReference{{Kind: "ReplicationController", Name: "rc", UID: "u"}}
	pod := rt.Create(t, rest, in)
	if !timeUUID.MatchString(pod.ID) || pod.DesiredState.Manifest.UUID != pod.ID || pod.DesiredState.Manifest.ID != pod.ID {
		t.Errorf("id %q, manifest uuid %q, manifest id %q", pod.ID, pod.DesiredState.Manifest.UUID, pod.DesiredState.Manifest.ID)
	}
	if pod.Namespace != "default" || pod.UID == "" || pod.CreationTimestamp.IsZero() || pod.ResourceVersion == 0 {
		t.Errorf("meta %+v", pod.TypeMeta)
	}
	if pod.DesiredState.Host != "" || pod.DesiredState.Status != api.PodRunning || pod.CurrentState.Status != api.PodWaiting {
		t.Errorf("desired %+v current %+v", pod.DesiredState, pod.CurrentState)
	}
	if len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].UID != "u" {
		t.Errorf("ownerReferences not kept: %+v", pod.OwnerReferences)
	}
	if pod.DesiredState.Manifest.RestartPolicy.Always == nil {
		t.Errorf("restart policy not defaulted")
	}
}

func TestCreateRefusals(t *testing.T) {
	rest, _ := newStorage(t)
	rt.Create(t, rest, rt.ValidPod("taken", "x"))
	noVersion := rt.ValidPod("a", "x")
	noVersion.DesiredState.Manifest.Version = ""
	versioned := rt.ValidPod("b", "x")
	versioned.ResourceVersion = 7
	otherNamespace := rt.ValidPod("c", "x")
	otherNamespace.Namespace = "elsewhere"
	cases := []struct {
		name string
		obj  api.Object
		code int
	}{
		{"invalid manifest", noVersion, 422},
		{"a resourceVersion", versioned, 422},
		{"an id in use", rt.ValidPod("taken", "x"), 409},
		{"another namespace", otherNamespace, 409},
		{"another kind", &api.Service{}, 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := rt.Await(rest.Create(ctx, c.obj))
			rt.ExpectCode(t, c.name, err, c.code)
		})
	}
	rt.ExpectHostileIDsRefused(t, rest, func(id string) api.Object { return rt.ValidPod(id, "x") })
}

func TestGetAndDelete(t *testing.T) {
	rest, _ := newStorage(t)
	created := rt.Create(t, rest, rt.ValidPod("foo", "x"))
	obj, err := rest.Get(ctx, "foo")
	if err != nil || obj.(*api.Pod).ResourceVersion != created.ResourceVersion {
		t.Fatalf("get: %v, %+v", err, obj)
	}
	status, err := rt.Await(rest.Delete(ctx, "foo"))
	if err != nil || status.(*api.Status).Status != api.StatusSuccess {
		t.Fatalf("delete: %v, %+v", err, status)
	}
	rt.ExpectGone(t, rest, "foo")
}

// ids returns the ids of a list, sorted: etcd lists a directory in no
// particular order, and neither did 2014.
func ids(list *api.PodList) []string {
	out := []string{}
	for _, p := range list.Items {
		out = append(out, p.ID)
	}
	sort.Strings(out)
	return out
}

func mustParse(t *testing.T, s string) labels.Selector {
	t.Helper()
	sel, err := labels.ParseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func TestListSelectsByLabelAndByThe2014Fields(t *testing.T) {
	rest, registry := newStorage(t)
	rt.Create(t, rest, rt.ValidPod("a", "web"))
	rt.Create(t, rest, rt.ValidPod("b", "web"))
	rt.Create(t, rest, rt.ValidPod("c", "db"))
	if err := registry.ApplyBinding(ctx, &api.Binding{PodID: "b", Host: "m1"}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		label, field string
		want         string
	}{
		{"", "", "[a b c]"},
		{"name=web", "", "[a b]"},
		{"name!=web", "", "[c]"},
		{"", "DesiredState.Host=m1", "[b]"},
		{"", "DesiredState.Host=", "[a c]"},
		{"name=web", "ID=a", "[a]"},
		{"", "DesiredState.Status=Running", "[a b c]"},
	}
	for _, c := range cases {
		obj, err := rest.List(ctx, mustParse(t, c.label), mustParse(t, c.field))
		if err != nil {
			t.Errorf("%q %q: %v", c.label, c.field, err)
			continue
		}
		list := obj.(*api.PodList)
		if got := fmtIDs(ids(list)); got != c.want {
			t.Errorf("%q %q: got %s, want %s", c.label, c.field, got, c.want)
		}
		if list.ResourceVersion == 0 {
			t.Errorf("list has no resourceVersion")
		}
	}
	obj, _ := rest.List(ctx, labels.Everything(), mustParse(t, "ID=b"))
	if host := obj.(*api.PodList).Items[0].CurrentState.Host; host != "m1" {
		t.Errorf("current host of a bound pod = %q, want the desired one", host)
	}
	_, err := rest.List(ctx, labels.Everything(), mustParse(t, "Status=Running"))
	rt.ExpectCode(t, "unknown field", err, 400)
}

func fmtIDs(ids []string) string {
	out := "["
	for i, id := range ids {
		if i > 0 {
			out += " "
		}
		out += id
	}
	return out + "]"
}

func TestUpdate(t *testing.T) {
	rest, _ := newStorage(t)
	pod := rt.Create(t, rest, rt.ValidPod("foo", "x"))
	first := pod.ResourceVersion
	pod.CurrentState = api.PodState{Status: api.PodRunning, Host: "m1", HostIP: "10.0.0.1", PodIP: "10.1.0.1"}
	obj, err := rt.Await(rest.Update(ctx, pod))
	if err != nil {
		t.Fatal(err)
	}
	updated := obj.(*api.Pod)
	if updated.ResourceVersion <= first || updated.CurrentState.PodIP != "10.1.0.1" || updated.UID != pod.UID {
		t.Errorf("after update: %+v", updated)
	}

	stale := rt.ValidPod("foo", "x")
	stale.ResourceVersion = first
	_, err = rt.Await(rest.Update(ctx, stale))
	rt.ExpectCode(t, "stale update", err, 409)
	_, err = rt.Await(rest.Update(ctx, rt.ValidPod("foo", "x")))
	rt.ExpectCode(t, "update without resourceVersion", err, 409)
	missing := rt.ValidPod("missing", "x")
	missing.ResourceVersion = 3
	_, err = rt.Await(rest.Update(ctx, missing))
	rt.ExpectCode(t, "update of a missing pod", err, 404)
	invalid := rt.ValidPod("foo", "x")
	invalid.DesiredState.Manifest.Containers[0].Image = ""
	_, err = rt.Await(rest.Update(ctx, invalid))
	rt.ExpectCode(t, "invalid update", err, 422)
	hostile := rt.ValidPod("../controllers/evil", "x")
	hostile.ResourceVersion = first
	_, err = rt.Await(rest.Update(ctx, hostile))
	rt.ExpectCode(t, "hostile id", err, 422)
}

func TestWatchByLabelFromZeroThenResume(t *testing.T) {
	rest, registry := newStorage(t)
	rt.Create(t, rest, rt.ValidPod("a", "web"))
	rt.Create(t, rest, rt.ValidPod("skip", "db"))
	w, err := rest.Watch(ctx, mustParse(t, "name=web"), labels.Everything(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if e := watchtest.Next(t, w); e.Type != watch.Added || e.Object.(*api.Pod).ID != "a" {
		t.Fatalf("replay: %v %+v", e.Type, e.Object)
	}
	if err := registry.ApplyBinding(ctx, &api.Binding{PodID: "a", Host: "m1"}); err != nil {
		t.Fatal(err)
	}
	bound := watchtest.Next(t, w)
	if bound.Type != watch.Modified || bound.Object.(*api.Pod).CurrentState.Host != "m1" {
		t.Fatalf("bind: %v %+v", bound.Type, bound.Object)
	}
	watchtest.StopAndDrain(t, w)

	rt.Create(t, rest, rt.ValidPod("b", "web"))
	rt.Create(t, rest, rt.ValidPod("skip2", "db"))
	if _, err := rt.Await(rest.Delete(ctx, "a")); err != nil {
		t.Fatal(err)
	}
	w, err = rest.Watch(ctx, mustParse(t, "name=web"), labels.Everything(), bound.Object.GetTypeMeta().ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w)
	added, deleted := watchtest.Next(t, w), watchtest.Next(t, w)
	if added.Type != watch.Added || added.Object.(*api.Pod).ID != "b" || deleted.Type != watch.Deleted || deleted.Object.(*api.Pod).ID != "a" {
		t.Errorf("resumed: %v %s, %v %s", added.Type, added.Object.(*api.Pod).ID, deleted.Type, deleted.Object.(*api.Pod).ID)
	}
	_, err = rest.Watch(ctx, labels.Everything(), mustParse(t, "Nope=x"), 0)
	rt.ExpectCode(t, "unknown field", err, 400)
}

func TestAPodThatStopsMatchingLeavesTheWatchAsDeletedWithItsLastMatchingState(t *testing.T) {
	rest, _ := newStorage(t)
	pod := rt.Create(t, rest, rt.ValidPod("a", "web"))
	w, err := rest.Watch(ctx, mustParse(t, "name=web"), labels.Everything(), pod.ResourceVersion)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w)
	pod.Labels = map[string]string{"name": "db"}
	if _, err := rt.Await(rest.Update(ctx, pod)); err != nil {
		t.Fatal(err)
	}
	e := watchtest.Next(t, w)
	if e.Type != watch.Deleted || e.Object.(*api.Pod).Labels["name"] != "web" {
		t.Errorf("leaving the selector: %v %+v", e.Type, e.Object.(*api.Pod).Labels)
	}
}
