//go:build !modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replication_controller_test.go
// as of v0.4 (October 2014): syncs run against canned pod lists with a
// recording FakePodControl, and the HTTP shape of a create is checked
// against a test server.

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

func newReplicationController(replicas int) api.ReplicationController {
	return api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "foo", Namespace: api.NamespaceDefault, ResourceVersion: 18},
		DesiredState: api.ReplicationControllerState{
			Replicas: replicas,
			PodTemplate: api.PodTemplate{
				DesiredState: api.PodState{Manifest: api.ContainerManifest{
					Containers: []api.Container{{Image: "foo/bar"}},
				}},
				Labels: map[string]string{"name": "foo", "type": "production"},
			},
		},
	}
}

func newPodList(count int, status api.PodStatus) api.PodList {
	pods := []api.Pod{}
	for i := 0; i < count; i++ {
		pods = append(pods, api.Pod{
			TypeMeta:     api.TypeMeta{ID: fmt.Sprintf("pod%d", i)},
			CurrentState: api.PodState{Status: status},
		})
	}
	return api.PodList{Items: pods}
}

func newManager(pods api.PodList) (*ReplicationManager, *FakePodControl, *client.Fake) {
	fakeClient := &client.Fake{Pods: pods}
	manager := NewReplicationManager(fakeClient)
	fakePodControl := &FakePodControl{}
	manager.podControl = fakePodControl
	return manager, fakePodControl, fakeClient
}

func validateSyncReplication(t *testing.T, fakePodControl *FakePodControl, expectedCreates, expectedDeletes int) {
	t.Helper()
	creates, deletes := fakePodControl.counts()
	if creates != expectedCreates {
		t.Errorf("%d creates, want %d", creates, expectedCreates)
	}
	if deletes != expectedDeletes {
		t.Errorf("%d deletes, want %d", deletes, expectedDeletes)
	}
}

func TestSyncWithAsManyPodsAsReplicasDoesNothing(t *testing.T) {
	manager, fakePodControl, _ := newManager(newPodList(2, api.PodRunning))
	if err := manager.syncReplicationController(newReplicationController(2)); err != nil {
		t.Fatal(err)
	}
	validateSyncReplication(t, fakePodControl, 0, 0)
}

func TestSyncWithTooManyPodsDeletesTheFirstListed(t *testing.T) {
	manager, fakePodControl, _ := newManager(newPodList(2, api.PodRunning))
	if err := manager.syncReplicationController(newReplicationController(1)); err != nil {
		t.Fatal(err)
	}
	validateSyncReplication(t, fakePodControl, 0, 1)
	if got := fakePodControl.deletePodID[0]; got != "pod0" {
		t.Errorf("deleted %s, want pod0, the first in list order", got)
	}
}

func TestSyncWithTooFewPodsCreatesTheDifference(t *testing.T) {
	manager, fakePodControl, _ := newManager(newPodList(0, api.PodRunning))
	if err := manager.syncReplicationController(newReplicationController(2)); err != nil {
		t.Fatal(err)
	}
	validateSyncReplication(t, fakePodControl, 2, 0)
}

func TestSyncIgnoresTerminatedPods(t *testing.T) {
	pods := newPodList(3, api.PodRunning)
	pods.Items[1].CurrentState.Status = api.PodTerminated
	pods.Items[2].CurrentState.Status = api.PodWaiting

	manager, fakePodControl, _ := newManager(pods)
	manager.syncReplicationController(newReplicationController(2))
	validateSyncReplication(t, fakePodControl, 0, 0)

	manager, fakePodControl, _ = newManager(pods)
	manager.syncReplicationController(newReplicationController(3))
	validateSyncReplication(t, fakePodControl, 1, 0)
}

func TestSyncListsPodsByTheControllersSelector(t *testing.T) {
	rc := newReplicationController(0)
	rc.DesiredState.ReplicaSelector = map[string]string{"name": "foo"}
	var gotQuery string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotQuery = r.URL.RawQuery
		w.Write([]byte(`{"kind":"PodList","apiVersion":"v1beta1","items":[]}`))
	}))
	defer server.Close()
	manager := NewReplicationManager(client.NewOrDie(&client.Config{Host: server.URL}))
	manager.podControl = &FakePodControl{}
	if err := manager.syncReplicationController(rc); err != nil {
		t.Fatal(err)
	}
	if gotQuery != "labels=name%3Dfoo" {
		t.Errorf("pod list query %q, want labels=name%%3Dfoo", gotQuery)
	}
}

func TestSyncReturnsThePodListError(t *testing.T) {
	manager, fakePodControl, fakeClient := newManager(newPodList(0, api.PodRunning))
	fakeClient.Err = fmt.Errorf("apiserver down")
	if err := manager.syncReplicationController(newReplicationController(2)); err == nil {
		t.Error("no error from a failed pod list")
	}
	validateSyncReplication(t, fakePodControl, 0, 0)
}

func TestCreateReplicaPostsTheTemplateWithTheControllerLabel(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.Method+" "+r.URL.Path+" "+string(body))
		mu.Unlock()
		w.Write([]byte(`{"kind":"Pod","apiVersion":"v1beta1","id":"x"}`))
	}))
	defer server.Close()

	podControl := RealPodControl{kubeClient: client.NewOrDie(&client.Config{Host: server.URL})}
	controllerSpec := newReplicationController(1)
	podControl.createReplica(api.NewDefaultContext(), controllerSpec)

	if len(bodies) != 1 || !strings.HasPrefix(bodies[0], "POST /api/v1beta1/pods ") {
		t.Fatalf("requests %v, want one POST /api/v1beta1/pods", bodies)
	}
	var sent map[string]interface{}
	if err := json.Unmarshal([]byte(strings.SplitN(bodies[0], " ", 3)[2]), &sent); err != nil {
		t.Fatal(err)
	}
	if sent["kind"] != "Pod" || sent["apiVersion"] != "v1beta1" || sent["id"] != nil {
		t.Errorf("kind %v, apiVersion %v, id %v; want Pod, v1beta1 and no id", sent["kind"], sent["apiVersion"], sent["id"])
	}
	wantLabels := map[string]interface{}{"name": "foo", "type": "production", "replicationController": "foo"}
	if fmt.Sprint(sent["labels"]) != fmt.Sprint(wantLabels) {
		t.Errorf("labels %v, want %v", sent["labels"], wantLabels)
	}
	if _, ok := controllerSpec.DesiredState.PodTemplate.Labels["replicationController"]; ok {
		t.Error("the template's own labels were changed")
	}
}

func TestSynchronizeSyncsEveryControllerAndTouchesOnlyPodsAndControllers(t *testing.T) {
	controllers := api.ReplicationControllerList{Items: []api.ReplicationController{
		newReplicationController(4), newReplicationController(3),
	}}
	controllers.Items[1].ID = "bar"
	var unexpected []string
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("/api/v1beta1/pods", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"kind":"PodList","apiVersion":"v1beta1","items":[]}`))
	})
	mux.HandleFunc("/api/v1beta1/replicationControllers", func(w http.ResponseWriter, r *http.Request) {
		data, _ := api.Encode(&controllers)
		w.Write(data)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		unexpected = append(unexpected, r.RequestURI)
		mu.Unlock()
		http.NotFound(w, r)
	})
	server := httptest.NewServer(mux)
	defer server.Close()

	manager := NewReplicationManager(client.NewOrDie(&client.Config{Host: server.URL}))
	fakePodControl := &FakePodControl{}
	manager.podControl = fakePodControl
	manager.synchronize()

	validateSyncReplication(t, fakePodControl, 7, 0)
	if len(unexpected) != 0 {
		t.Errorf("unexpected requests: %v", unexpected)
	}
}

// watchClient hands out a new FakeWatcher for every watch and records the
// resourceVersion each watch asked for.
type watchClient struct {
	*client.Fake
	mu       sync.Mutex
	versions []uint64
	watchers chan *watch.FakeWatcher
}

func (w *watchClient) WatchReplicationControllers(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	fw := watch.NewFake()
	w.mu.Lock()
	w.versions = append(w.versions, rv)
	w.mu.Unlock()
	w.watchers <- fw
	return fw, nil
}

func TestAWatchEventReachesTheSyncHandlerWithThatController(t *testing.T) {
	fakeWatch := &watchClient{Fake: &client.Fake{}, watchers: make(chan *watch.FakeWatcher, 1)}
	manager := NewReplicationManager(fakeWatch)
	received := make(chan api.ReplicationController, 1)
	manager.syncHandler = func(rc api.ReplicationController) error {
		received <- rc
		return nil
	}
	resourceVersion := uint64(0)
	go manager.watchControllers(&resourceVersion)
	fw := <-fakeWatch.watchers

	fw.Add(&api.ReplicationController{TypeMeta: api.TypeMeta{ID: "foo", ResourceVersion: 7}})
	select {
	case rc := <-received:
		if rc.ID != "foo" {
			t.Errorf("synced %q, want foo", rc.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the watch event never reached the sync handler")
	}
	fw.Stop()
}

func TestAClosedWatchRestartsFromTheLastResourceVersion(t *testing.T) {
	fakeWatch := &watchClient{Fake: &client.Fake{}, watchers: make(chan *watch.FakeWatcher, 1)}
	manager := NewReplicationManager(fakeWatch)
	synced := make(chan string, 4)
	manager.syncHandler = func(rc api.ReplicationController) error {
		synced <- rc.ID
		return nil
	}
	// A short period, so util.Forever restarts the watch quickly. The ticks
	// list no controllers from the empty fake and so do nothing.
	manager.Run(50 * time.Millisecond)

	first := <-fakeWatch.watchers
	first.Modify(&api.ReplicationController{TypeMeta: api.TypeMeta{ID: "foo", ResourceVersion: 42}})
	<-synced
	first.Stop()

	var second *watch.FakeWatcher
	select {
	case second = <-fakeWatch.watchers:
	case <-time.After(10 * time.Second):
		t.Fatal("the watch was not restarted")
	}
	defer second.Stop()
	fakeWatch.mu.Lock()
	defer fakeWatch.mu.Unlock()
	if got := fmt.Sprint(fakeWatch.versions); got != "[0 42]" {
		t.Errorf("watches asked for resourceVersions %s, want [0 42]", got)
	}
}

func TestANonControllerInTheWatchStreamIsSkipped(t *testing.T) {
	fakeWatch := &watchClient{Fake: &client.Fake{}, watchers: make(chan *watch.FakeWatcher, 1)}
	manager := NewReplicationManager(fakeWatch)
	synced := make(chan string, 2)
	manager.syncHandler = func(rc api.ReplicationController) error {
		synced <- rc.ID
		return nil
	}
	resourceVersion := uint64(0)
	done := make(chan struct{})
	go func() {
		manager.watchControllers(&resourceVersion)
		close(done)
	}()
	fw := <-fakeWatch.watchers
	fw.Error(&api.Status{Status: api.StatusFailure, Code: 410})
	fw.Add(&api.ReplicationController{TypeMeta: api.TypeMeta{ID: "after", ResourceVersion: 3}})
	if got := <-synced; got != "after" {
		t.Errorf("synced %q", got)
	}
	fw.Stop()
	<-done
}
