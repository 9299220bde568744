package acked

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// The crash checker guards the crash scenario's and the fault tests'
// claim that nothing the apiserver acknowledged is lost. These tests plant
// each loss it must catch in a store it reads, so that a checker that
// stopped looking (at a missing create, a binding, a host or an object's
// validity) fails here, in a second, rather than passing every crash.

// ackStore is an apiserver in memory behind a real write recorder: it
// answers creates with the object, a uid and the default namespace, bindings with Success and
// deletes by removing the object, keeping everything in the canned lists
// of a fake client, which the checker then reads. A test plants a fault by
// changing those lists.
type ackStore struct {
	mu    sync.Mutex
	store *client.Fake
}

func (s *ackStore) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, _ := io.ReadAll(r.Body)
	path := strings.TrimPrefix(r.URL.Path, "/api/v1beta1/")
	reply := func(code int, obj api.Object) {
		data, err := api.Encode(obj)
		if err != nil {
			panic(err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write(data)
	}
	fail := func(err error) {
		reply(http.StatusBadRequest, &api.Status{Status: api.StatusFailure, Message: err.Error(), Code: http.StatusBadRequest})
	}
	switch {
	case r.Method == http.MethodPost && path == "pods":
		var pod api.Pod
		if err := api.DecodeInto(body, &pod); err != nil {
			fail(err)
			return
		}
		if strings.HasPrefix(pod.ID, "refused") {
			reply(http.StatusInternalServerError, &api.Status{Status: api.StatusFailure, Code: http.StatusInternalServerError})
			return
		}
		pod.UID, pod.Namespace = "uid-"+pod.ID, api.NamespaceDefault
		s.store.Pods.Items = append(s.store.Pods.Items, pod)
		reply(http.StatusOK, &pod)
	case r.Method == http.MethodPost && path == "replicationControllers":
		var rc api.ReplicationController
		if err := api.DecodeInto(body, &rc); err != nil {
			fail(err)
			return
		}
		rc.UID, rc.Namespace = "uid-"+rc.ID, api.NamespaceDefault
		s.store.CtrlList.Items = append(s.store.CtrlList.Items, rc)
		reply(http.StatusOK, &rc)
	case r.Method == http.MethodPost && path == "services":
		var svc api.Service
		if err := api.DecodeInto(body, &svc); err != nil {
			fail(err)
			return
		}
		svc.UID, svc.Namespace = "uid-"+svc.ID, api.NamespaceDefault
		s.store.Services.Items = append(s.store.Services.Items, svc)
		reply(http.StatusOK, &svc)
	case r.Method == http.MethodPost && path == "bindings":
		var b api.Binding
		if err := api.DecodeInto(body, &b); err != nil {
			fail(err)
			return
		}
		if p := s.pod(b.PodID); p != nil {
			p.DesiredState.Host = b.Host
		}
		reply(http.StatusOK, &api.Status{Status: api.StatusSuccess})
	case r.Method == http.MethodDelete && strings.HasPrefix(path, "pods/"):
		id := strings.TrimPrefix(path, "pods/")
		items := s.store.Pods.Items[:0]
		for _, p := range s.store.Pods.Items {
			if p.ID != id {
				items = append(items, p)
			}
		}
		s.store.Pods.Items = items
		reply(http.StatusOK, &api.Status{Status: api.StatusSuccess})
	default:
		reply(http.StatusNotFound, &api.Status{Status: api.StatusFailure, Code: http.StatusNotFound})
	}
}

// pod returns the stored pod id, or nil; call it with s.mu held.
func (s *ackStore) pod(id string) *api.Pod {
	for i := range s.store.Pods.Items {
		if s.store.Pods.Items[i].ID == id {
			return &s.store.Pods.Items[i]
		}
	}
	return nil
}

// webSelector is the controller's and the service's selector.
var webSelector = map[string]string{"app": "web"}

func ackPod(id string) *api.Pod {
	return &api.Pod{
		TypeMeta: api.TypeMeta{ID: id},
		Labels:   map[string]string{"app": "web"},
		DesiredState: api.PodState{Manifest: api.ContainerManifest{
			Version:    "v1beta1",
			Containers: []api.Container{{Name: "web", Image: "dockerfile/nginx"}},
		}},
	}
}

// acknowledged is a store and the recorder that saw what it acknowledged.
type acknowledged struct {
	s   *ackStore
	rec *stack.WriteRecorder
}

// ackedCluster writes through a recorder into a store, as a crash test's
// clients do: a controller, a service, pods web-0 to web-3 of which web-0,
// web-1 and web-2 are bound to node-0, node-1 and node-2, a pod the
// store refuses, and a pod gone that is bound and then deleted. The
// store also holds an endpoints object and a minion that no recorder saw.
// With through false, the pods and bindings reach the store around the
// recorder, as the managers and hollow nodes of a stack wired around it
// would.
func ackedCluster(t *testing.T, through bool) acknowledged {
	t.Helper()
	s := &ackStore{store: &client.Fake{}}
	backend := httptest.NewServer(s)
	t.Cleanup(backend.Close)
	rec, err := stack.StartWriteRecorder(backend.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	test := client.NewOrDie(&client.Config{Host: rec.URL(), Sync: true, UserAgent: "test"})
	managers := test
	if !through {
		managers = client.NewOrDie(&client.Config{Host: backend.URL, Sync: true, UserAgent: "around"})
	}
	ctx := api.NewDefaultContext()
	rc := &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "web"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        4,
			ReplicaSelector: webSelector,
			PodTemplate:     api.PodTemplate{DesiredState: ackPod("template").DesiredState, Labels: webSelector},
		},
	}
	if _, err := test.CreateReplicationController(ctx, rc); err != nil {
		t.Fatal(err)
	}
	if _, err := test.CreateService(ctx, &api.Service{TypeMeta: api.TypeMeta{ID: "web"}, Port: 80, Selector: webSelector}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"web-0", "web-1", "web-2", "web-3", "gone"} {
		if _, err := managers.CreatePod(ctx, ackPod(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := managers.CreatePod(ctx, ackPod("refused")); err == nil {
		t.Fatal("the store took the pod it refuses")
	}
	for i, id := range []string{"web-0", "web-1", "web-2", "gone"} {
		if err := managers.CreateBinding(ctx, &api.Binding{PodID: id, Host: fmt.Sprintf("node-%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := managers.DeletePod(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	s.store.Endpoints.Items = []api.Endpoints{{TypeMeta: api.TypeMeta{ID: "web", Namespace: api.NamespaceDefault}, Endpoints: []string{"10.0.0.1:80"}}}
	s.store.Minions.Items = []api.Minion{{TypeMeta: api.TypeMeta{ID: "node-0"}, HostIP: "10.0.1.1"}}
	return acknowledged{s, rec}
}

// check runs the checker over the store as it is now.
func (a acknowledged) check(t *testing.T) Report {
	t.Helper()
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	report, err := Check(a.s.store, a.rec)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

func TestTheCrashCheckerCountsEveryAcknowledgedWriteAndFindsNothingLostInAStoreThatKeptThem(t *testing.T) {
	report := ackedCluster(t, true).check(t)
	// Eight creates sent, seven acknowledged (not the refused one); gone
	// was deleted since, so six are checked, four of them pods, and three
	// of the four bindings; eight objects are read back.
	want := Report{Sent: 8, Creates: 6, Pods: 4, Binds: 3, Objects: 8}
	if fmt.Sprint(report) != fmt.Sprint(want) {
		t.Errorf("report:\n%v\nwant:\n%v", report, want)
	}
	if err := report.Enough(8); err != nil {
		t.Errorf("four pods of eight and three bindings checked: %v", err)
	}
}

// TestTheCrashCheckerCatchesEveryPlantedLoss plants, one at a time, each
// fault the checker exists to catch, and wants exactly that fault named.
func TestTheCrashCheckerCatchesEveryPlantedLoss(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(s *client.Fake)
		// lost, bindsLost and unreadable are the entries wanted in each
		// of the report's lists, by what each must name.
		lost, bindsLost, unreadable []string
	}{{
		name:  "a lost acknowledged create",
		plant: func(s *client.Fake) { s.Pods.Items = without(s.Pods.Items, "web-3") },
		lost:  []string{"pods/web-3 (uid uid-web-3, acknowledged to test) is missing"},
	}, {
		name:      "a lost pod whose binding was acknowledged",
		plant:     func(s *client.Fake) { s.Pods.Items = without(s.Pods.Items, "web-0") },
		lost:      []string{"pods/web-0 (uid uid-web-0, acknowledged to test) is missing"},
		bindsLost: []string{"pod web-0 is missing, its binding to node-0 was acknowledged"},
	}, {
		name:  "a lost controller",
		plant: func(s *client.Fake) { s.CtrlList.Items = nil },
		lost:  []string{"replicationControllers/web (uid uid-web, acknowledged to test) is missing"},
	}, {
		name:  "a lost service",
		plant: func(s *client.Fake) { s.Services.Items = nil },
		lost:  []string{"services/web (uid uid-web, acknowledged to test) is missing"},
	}, {
		name:  "a pod created again under the same id",
		plant: func(s *client.Fake) { pod(s, "web-1").UID = "uid-other" },
		lost:  []string{"pods/web-1 has uid uid-other, acknowledged to test as uid-web-1"},
	}, {
		name:      "a lost binding",
		plant:     func(s *client.Fake) { pod(s, "web-1").DesiredState.Host = "" },
		bindsLost: []string{`pod web-1 is on "", its binding to node-1 was acknowledged`},
	}, {
		name:      "a pod on the wrong host",
		plant:     func(s *client.Fake) { pod(s, "web-2").DesiredState.Host = "node-9" },
		bindsLost: []string{`pod web-2 is on "node-9", its binding to node-2 was acknowledged`},
	}, {
		name:       "a pod that fails validation",
		plant:      func(s *client.Fake) { pod(s, "web-1").DesiredState.Manifest.Version = "" },
		unreadable: []string{"pod web-1: "},
	}, {
		name:       "a controller that fails validation",
		plant:      func(s *client.Fake) { s.CtrlList.Items[0].DesiredState.Replicas = -1 },
		unreadable: []string{"controller web: "},
	}, {
		name:       "a service that fails validation",
		plant:      func(s *client.Fake) { s.Services.Items[0].Port = 0 },
		unreadable: []string{"service web: "},
	}, {
		name:       "endpoints that fail validation",
		plant:      func(s *client.Fake) { s.Endpoints.Items[0].Endpoints = []string{"10.0.0.1"} },
		unreadable: []string{"endpoints web: "},
	}, {
		name:       "a minion that fails validation",
		plant:      func(s *client.Fake) { s.Minions.Items[0].HostIP = "not an address" },
		unreadable: []string{"minion node-0: "},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			a := ackedCluster(t, true)
			a.s.mu.Lock()
			tc.plant(a.s.store)
			a.s.mu.Unlock()
			report := a.check(t)
			for _, l := range []struct {
				name      string
				got, want []string
			}{{"lost", report.Lost, tc.lost}, {"bindings lost", report.BindsLost, tc.bindsLost}, {"unreadable", report.Unreadable, tc.unreadable}} {
				if len(l.got) != len(l.want) {
					t.Errorf("%s: %q, want %q", l.name, l.got, l.want)
					continue
				}
				for i := range l.want {
					if !strings.HasPrefix(l.got[i], l.want[i]) {
						t.Errorf("%s: %q, want %q", l.name, l.got[i], l.want[i])
					}
				}
			}
			// The loss is named where a reader of the report sees it.
			for _, item := range append(append(report.Lost, report.BindsLost...), report.Unreadable...) {
				if !strings.Contains(report.String(), "\n  "+item) {
					t.Errorf("the report does not list %q:\n%s", item, report)
				}
			}
		})
	}
}

// TestTheCrashCheckerSaysWhenItCheckedTooLittle wires the pods' creates and
// bindings around the recorder, as a stack whose managers and hollow
// nodes bypass it would be: nothing is lost, because nothing was seen,
// and Enough must say so.
func TestTheCrashCheckerSaysWhenItCheckedTooLittle(t *testing.T) {
	report := ackedCluster(t, false).check(t)
	if report.Creates != 2 || report.Pods != 0 || report.Binds != 0 || len(report.Lost) != 0 {
		t.Errorf("with only the controller and service through the recorder: %v", report)
	}
	if err := report.Enough(4); err == nil {
		t.Errorf("Enough accepted a check of no pod and no binding: %v", report)
	}
	for _, tc := range []struct {
		r    Report
		pods int
		ok   bool
	}{
		{Report{Pods: 4, Binds: 1}, 8, true},
		{Report{Pods: 4, Binds: 1}, 9, false},
		{Report{Pods: 8, Binds: 0}, 8, false},
		{Report{Pods: 0, Binds: 0}, 0, false},
	} {
		if err := tc.r.Enough(tc.pods); (err == nil) != tc.ok {
			t.Errorf("%+v Enough(%d) = %v, want ok %v", tc.r, tc.pods, err, tc.ok)
		}
	}
}

func TestTheCrashCheckerRefusesToCheckWithoutARecorderOrAStore(t *testing.T) {
	if _, err := Check(&client.Fake{}, nil); err == nil {
		t.Error("a stack that records no writes was checked")
	}
	rec, err := stack.StartWriteRecorder("http://127.0.0.1:1")
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	if _, err := Check(&client.Fake{Err: fmt.Errorf("etcd is away")}, rec); err == nil || !strings.Contains(err.Error(), "etcd is away") {
		t.Errorf("a store that cannot be read gave %v, want its error", err)
	}
}

// TestTheCrashReportListsFiveOfEachKindOfLoss keeps a report of a thousand
// losses readable and one of five whole.
func TestTheCrashReportListsFiveOfEachKindOfLoss(t *testing.T) {
	items := func(n int) []string {
		var out []string
		for i := 0; i < n; i++ {
			out = append(out, fmt.Sprintf("item-%d", i))
		}
		return out
	}
	r := Report{Lost: items(5), BindsLost: items(6), Unreadable: items(1)}
	if got := strings.Count(r.String(), "\n  "); got != 11 {
		t.Errorf("%d entries listed, want 5+5+1:\n%s", got, r)
	}
}

func without(pods []api.Pod, id string) []api.Pod {
	var out []api.Pod
	for _, p := range pods {
		if p.ID != id {
			out = append(out, p)
		}
	}
	return out
}

func pod(s *client.Fake, id string) *api.Pod {
	for i := range s.Pods.Items {
		if s.Pods.Items[i].ID == id {
			return &s.Pods.Items[i]
		}
	}
	panic("no pod " + id)
}

// TestThePodCreatesAcknowledgedAreCountedBeforeTheCrash: the scenario
// strikes once half the pods' creates were acknowledged, counting pods
// alone, deleted since or not.
func TestThePodCreatesAcknowledgedAreCountedBeforeTheCrash(t *testing.T) {
	a := ackedCluster(t, true)
	if n := Pods(a.rec); n != 5 {
		t.Errorf("%d pod creates acknowledged, want 5 (web-0 to web-3 and gone)", n)
	}
}

// racingStore is the store read while the cluster still writes: right
// before its pods are listed, before runs, right after, after, and
// before its controllers are listed, next (when set).
type racingStore struct {
	*client.Fake
	s                   *ackStore
	before, after, next func()
}

func (r racingStore) ListReplicationControllers(ctx api.Context, selector labels.Selector) (*api.ReplicationControllerList, error) {
	if r.next != nil {
		r.next()
	}
	return r.Fake.ListReplicationControllers(ctx, selector)
}

func (r racingStore) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	r.before()
	r.s.mu.Lock()
	list, err := r.Fake.ListPods(ctx, selector)
	r.s.mu.Unlock()
	r.after()
	return list, err
}

// TestWritesWhileTheCheckerReadsAreNeitherLostNorMissed plants the race a
// fault test's 2014 manager can run into: a pod deleted just before the
// checker lists the pods, and a pod whose create and binding are
// acknowledged just after. Neither is lost; a checker that took its
// record of acknowledged writes after reading reported the second as
// missing, and one that took it all before reading, the first.
func TestWritesWhileTheCheckerReadsAreNeitherLostNorMissed(t *testing.T) {
	a := ackedCluster(t, true)
	c := client.NewOrDie(&client.Config{Host: a.rec.URL(), Sync: true, UserAgent: "racing"})
	ctx := api.NewDefaultContext()
	store := racingStore{Fake: a.s.store, s: a.s,
		before: func() {
			if err := c.DeletePod(ctx, "web-3"); err != nil {
				t.Fatal(err)
			}
		},
		after: func() {
			if _, err := c.CreatePod(ctx, ackPod("late")); err != nil {
				t.Fatal(err)
			}
			if err := c.CreateBinding(ctx, &api.Binding{PodID: "late", Host: "node-9"}); err != nil {
				t.Fatal(err)
			}
		},
	}
	report, err := Check(store, a.rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Lost)+len(report.BindsLost)+len(report.Unreadable) > 0 {
		t.Errorf("writes racing the check were reported lost:\n%v", report)
	}
	// web-3 deleted and late acknowledged too late: three pods checked.
	if report.Pods != 3 || report.Binds != 3 {
		t.Errorf("%d pods and %d bindings checked, want 3 and 3:\n%v", report.Pods, report.Binds, report)
	}
}

// TestADeleteSentAfterTheListExcusesNothing plants a pod the store lost
// before the checker listed the pods, deleted only after that LIST was
// answered, while the checker lists the controllers: the delete came too
// late to explain its absence, and the checker must report the loss.
func TestADeleteSentAfterTheListExcusesNothing(t *testing.T) {
	a := ackedCluster(t, true)
	c := client.NewOrDie(&client.Config{Host: a.rec.URL(), Sync: true, UserAgent: "racing"})
	ctx := api.NewDefaultContext()
	store := racingStore{Fake: a.s.store, s: a.s,
		before: func() {
			a.s.mu.Lock()
			a.s.store.Pods.Items = without(a.s.store.Pods.Items, "web-2")
			a.s.mu.Unlock()
		},
		after: func() {},
		next: func() {
			if err := c.DeletePod(ctx, "web-2"); err != nil {
				t.Fatal(err)
			}
		},
	}
	report, err := Check(store, a.rec)
	if err != nil {
		t.Fatal(err)
	}
	want := "[pods/web-2 (uid uid-web-2, acknowledged to test) is missing] [pod web-2 is missing, its binding to node-2 was acknowledged]"
	if got := fmt.Sprint(report.Lost, " ", report.BindsLost); got != want {
		t.Errorf("lost %s, want %s", got, want)
	}
}
