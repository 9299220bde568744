package master

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

var ctx = rt.Ctx()

func TestNewStorageServesThe2014ResourcesAndWatchesFourOfThem(t *testing.T) {
	storage := NewStorage(rt.NewHelper(t))
	var names []string
	for name := range storage {
		names = append(names, name)
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "bindings endpoints minions pods replicationControllers services" {
		t.Errorf("resources: %s", got)
	}
	for name, want := range map[string]bool{"pods": true, "replicationControllers": true, "services": true, "endpoints": true, "minions": false, "bindings": false} {
		if _, ok := storage[name].(apiserver.ResourceWatcher); ok != want {
			t.Errorf("%s watchable = %v, want %v", name, ok, want)
		}
	}
}

// objectWithID returns a valid object of the resource's kind named id.
func objectWithID(resource, id string) api.Object {
	switch resource {
	case "pods":
		return rt.ValidPod(id, "x")
	case "replicationControllers":
		return rt.ValidController(id, "x", 1)
	case "services":
		return rt.ValidService(id, "x")
	case "endpoints":
		return &api.Endpoints{TypeMeta: api.TypeMeta{ID: id}}
	case "minions":
		return &api.Minion{TypeMeta: api.TypeMeta{ID: id}}
	case "bindings":
		return &api.Binding{PodID: id, Host: "m1"}
	}
	panic(resource)
}

// allKeys returns every key etcd holds, directories included, sorted.
func allKeys(t *testing.T, helper tools.EtcdHelper) []string {
	t.Helper()
	resp, err := helper.Client.Get("/", true, true)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	var walk func(node *etcd.Node)
	walk = func(node *etcd.Node) {
		if node.Key != "" {
			keys = append(keys, node.Key)
		}
		for _, child := range node.Nodes {
			walk(child)
		}
	}
	walk(resp.Node)
	sort.Strings(keys)
	return keys
}

func TestNoHostileIDReachesAKeyOutsideItsResource(t *testing.T) {
	helper := rt.NewHelper(t)
	storage := NewStorage(helper)
	// One pod, so that a bad update of an existing object is tried too.
	if _, err := rt.Await(storage["pods"].Create(ctx, rt.ValidPod("victim", "x"))); err != nil {
		t.Fatal(err)
	}
	before := allKeys(t, helper)
	t.Logf("keys before: %v", before)
	for resource, rest := range storage {
		for _, id := range rt.HostileIDs() {
			what := fmt.Sprintf("%s %q", resource, id)
			wantRead, wantWrite := 400, 422
			if resource == "bindings" {
				wantRead = 405
			}
			_, err := rest.Get(ctx, id)
			rt.ExpectCode(t, "get "+what, err, wantRead)
			_, err = rt.Await(rest.Delete(ctx, id))
			rt.ExpectCode(t, "delete "+what, err, wantRead)
			_, err = rt.Await(rest.Create(ctx, objectWithID(resource, id)))
			rt.ExpectCode(t, "create "+what, err, wantWrite)
			update := objectWithID(resource, id)
			update.GetTypeMeta().ResourceVersion = 5
			_, err = rt.Await(rest.Update(ctx, update))
			switch resource {
			case "minions", "bindings":
				rt.ExpectCode(t, "update "+what, err, 405)
			default:
				rt.ExpectCode(t, "update "+what, err, wantWrite)
			}
			if watcher, ok := rest.(apiserver.ResourceWatcher); ok && (resource == "services" || resource == "endpoints") {
				_, err := watcher.Watch(ctx, labels.Everything(), labels.Set{"ID": id}.AsSelector(), 0)
				rt.ExpectCode(t, "watch "+what, err, 400)
			}
		}
	}
	if after := allKeys(t, helper); strings.Join(after, " ") != strings.Join(before, " ") {
		t.Errorf("keys changed:\nbefore %v\nafter  %v", before, after)
	}
}

func TestWatchingPodsFromBeforeEtcdsWindowEndsWithOneGoneEvent(t *testing.T) {
	helper := rt.NewHelper(t)
	storage := NewStorage(helper)
	obj, err := rt.Await(storage["pods"].Create(ctx, rt.ValidPod("busy", "x")))
	if err != nil {
		t.Fatal(err)
	}
	pod := obj.(*api.Pod)
	early := pod.ResourceVersion
	// etcd remembers its last 1000 events: make 1010 more.
	for i := 0; i < 1010; i++ {
		pod.CurrentState.Info = api.PodInfo{"c": {RestartCount: i}}
		if err := helper.SetObj("/registry/pods/busy", pod); err != nil {
			t.Fatal(err)
		}
	}
	w, err := storage["pods"].(apiserver.ResourceWatcher).Watch(ctx, labels.Everything(), labels.Everything(), early)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w)
	e := watchtest.Next(t, w)
	status, ok := e.Object.(*api.Status)
	if e.Type != watch.Error || !ok || status.Code != 410 || !strings.Contains(status.Message, fmt.Sprint(early)) {
		t.Fatalf("got %v %+v, want one ERROR 410 naming resourceVersion %d", e.Type, e.Object, early)
	}
	select {
	case e, ok := <-w.ResultChan():
		if ok {
			t.Fatalf("event after the ERROR: %v", e.Type)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("watch not closed after the ERROR")
	}
	// A watch from a recent version still works.
	w2, err := storage["pods"].(apiserver.ResourceWatcher).Watch(ctx, labels.Everything(), labels.Everything(), pod.ResourceVersion-1)
	if err != nil {
		t.Fatal(err)
	}
	defer watchtest.StopAndDrain(t, w2)
	if e := watchtest.Next(t, w2); e.Type != watch.Modified || e.Object.GetTypeMeta().ResourceVersion != pod.ResourceVersion {
		t.Errorf("recent watch: %v at %d", e.Type, e.Object.GetTypeMeta().ResourceVersion)
	}
}

func TestAnUnreachableEtcdIsA503ForEveryVerb(t *testing.T) {
	client := tools.NewEtcdClient([]string{"http://127.0.0.1:1"})
	storage := NewStorage(tools.EtcdHelper{Client: client})
	pods := storage["pods"]
	_, err := pods.Get(ctx, "foo")
	rt.ExpectCode(t, "get", err, 503)
	_, err = pods.List(ctx, labels.Everything(), labels.Everything())
	rt.ExpectCode(t, "list", err, 503)
	_, err = rt.Await(pods.Create(ctx, rt.ValidPod("foo", "x")))
	rt.ExpectCode(t, "create", err, 503)
	_, err = rt.Await(pods.Delete(ctx, "foo"))
	rt.ExpectCode(t, "delete", err, 503)
	w, err := pods.(apiserver.ResourceWatcher).Watch(ctx, labels.Everything(), labels.Everything(), 0)
	if err != nil {
		t.Fatal(err)
	}
	e := watchtest.Next(t, w)
	if status, ok := e.Object.(*api.Status); e.Type != watch.Error || !ok || status.Code != 503 {
		t.Errorf("watch: %v %+v", e.Type, e.Object)
	}
	watchtest.StopAndDrain(t, w)
}
