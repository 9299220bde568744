package faults

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// podStore is a storage of pods in memory that counts the writes that
// reach it and hands out fake watches.
type podStore struct {
	mu      sync.Mutex
	writes  int
	watches []*watch.FakeWatcher
}

func (s *podStore) New() api.Object { return &api.Pod{} }

func (s *podStore) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	return &api.PodList{}, nil
}

func (s *podStore) Get(ctx api.Context, id string) (api.Object, error) {
	return &api.Pod{TypeMeta: api.TypeMeta{ID: id}}, nil
}

func (s *podStore) write(obj api.Object) (<-chan api.Object, error) {
	s.mu.Lock()
	s.writes++
	s.mu.Unlock()
	return apiserver.MakeAsync(func() (api.Object, error) { return obj, nil }), nil
}

func (s *podStore) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	return s.write(obj)
}

func (s *podStore) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	return s.write(obj)
}

func (s *podStore) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	return s.write(&api.Status{Status: api.StatusSuccess})
}

func (s *podStore) Watch(ctx api.Context, label, field labels.Selector, rv uint64) (watch.Interface, error) {
	w := watch.NewFake()
	s.mu.Lock()
	s.watches = append(s.watches, w)
	s.mu.Unlock()
	return w, nil
}

func (s *podStore) writeCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

func (s *podStore) lastWatch() *watch.FakeWatcher {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.watches) == 0 {
		return nil
	}
	return s.watches[len(s.watches)-1]
}

// faultyServer serves a podStore through the switch, wired as
// cmd/apiserver wires it.
type faultyServer struct {
	*httptest.Server
	faults   *Faults
	store    *podStore
	registry *prometheus.Registry
}

func newFaultyServer(t *testing.T, f *Faults) *faultyServer {
	t.Helper()
	store := &podStore{}
	registry := prometheus.NewRegistry()
	mux := http.NewServeMux()
	mux.Handle("/admin/faults", f)
	mux.Handle("/", apiserver.Handle(f.Wrap(map[string]apiserver.RESTStorage{"pods": store}, registry), apiserver.DefaultPrefix, apiserver.Options{Registry: registry}))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &faultyServer{Server: srv, faults: f, store: store, registry: registry}
}

func (s *faultyServer) do(t *testing.T, method, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// counted returns the sum of apiserver_injected_faults_total over the
// series whose labels include want.
func (s *faultyServer) counted(t *testing.T, want map[string]string) float64 {
	t.Helper()
	return registrytest.MetricValue(t, s.registry, "apiserver_injected_faults_total", want)
}

func TestInjectedFailuresAreCountedAndNeverReachStorage(t *testing.T) {
	f := New(7)
	srv := newFaultyServer(t, f)
	if err := f.Set(Config{Fail: []FailRule{{Verb: "POST", Resource: "pods", Fraction: 0.1, Code: 500}}}); err != nil {
		t.Fatal(err)
	}
	failures := 0
	for i := 0; i < 500; i++ {
		code, body := srv.do(t, "POST", "/api/v1beta1/pods?sync=true", `{"id":"a"}`)
		switch code {
		case 200:
		case 500:
			failures++
			status := decodeStatus(t, body)
			if status.Reason != api.StatusReasonInternalError || !strings.Contains(status.Message, "injected fault") {
				t.Fatalf("injected Status = %+v", status)
			}
		default:
			t.Fatalf("HTTP %d %s", code, body)
		}
	}
	if failures < 20 || failures > 80 {
		t.Errorf("%d failures in 500 at 0.1, want between 20 and 80", failures)
	}
	if writes := srv.store.writeCount(); writes != 500-failures {
		t.Errorf("storage saw %d writes with %d injected failures; want %d", writes, failures, 500-failures)
	}
	if got := srv.counted(t, map[string]string{"verb": "POST", "resource": "pods", "kind": "fail"}); got != float64(failures) {
		t.Errorf("injected faults counted %v, want %d", got, failures)
	}
	if code, body := srv.do(t, "GET", "/api/v1beta1/pods", ""); code != 200 {
		t.Errorf("LIST, which no rule names: HTTP %d %s", code, body)
	}
}

func TestAnInjectedCodeGetsItsReason(t *testing.T) {
	f := New(1)
	srv := newFaultyServer(t, f)
	for _, c := range []struct {
		verb, method, path string
		code               int
		reason             api.StatusReason
	}{
		{"WATCH", "GET", "/api/v1beta1/watch/pods", 503, api.StatusReasonServiceUnavailable},
		{"GET", "GET", "/api/v1beta1/pods/a", 429, "TooManyRequests"},
		{"DELETE", "DELETE", "/api/v1beta1/pods/a", 409, api.StatusReasonConflict},
	} {
		if err := f.Set(Config{Fail: []FailRule{{Verb: c.verb, Resource: "pods", Fraction: 1, Code: c.code}}}); err != nil {
			t.Fatal(err)
		}
		code, body := srv.do(t, c.method, c.path, "")
		status := decodeStatus(t, body)
		if code != c.code || status.Code != c.code || status.Reason != c.reason {
			t.Errorf("%s %s: HTTP %d %+v, want %d %s", c.method, c.path, code, status, c.code, c.reason)
		}
	}
	if n := srv.store.writeCount(); n != 0 {
		t.Errorf("storage saw %d writes", n)
	}
}

func TestInjectedLatencyDelaysWithoutFailing(t *testing.T) {
	f := New(1)
	srv := newFaultyServer(t, f)
	if err := f.Set(Config{Latency: []LatencyRule{{Verb: "*", Resource: "pods", Latency: Duration(time.Millisecond)}}}); err != nil {
		t.Fatal(err)
	}
	if code, body := srv.do(t, "POST", "/api/v1beta1/pods?sync=true", `{"id":"a"}`); code != 200 {
		t.Fatalf("HTTP %d %s", code, body)
	}
	if code, body := srv.do(t, "GET", "/api/v1beta1/pods", ""); code != 200 {
		t.Fatalf("HTTP %d %s", code, body)
	}
	if got := srv.counted(t, map[string]string{"kind": "latency", "verb": "POST"}); got != 1 {
		t.Errorf("latency faults on POST counted %v, want 1", got)
	}
	if got := srv.counted(t, map[string]string{"kind": "latency", "verb": "LIST"}); got != 1 {
		t.Errorf("latency faults on LIST counted %v, want 1", got)
	}
	if n := srv.store.writeCount(); n != 1 {
		t.Errorf("storage saw %d writes, want 1", n)
	}
}

// openWatch opens a watch on pods and returns its reader and the fake
// storage watch behind it.
func openWatch(t *testing.T, srv *faultyServer) (*bufio.Reader, *watch.FakeWatcher) {
	t.Helper()
	before := srv.store.lastWatch()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/v1beta1/watch/pods", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		t.Fatalf("watch: HTTP %d", resp.StatusCode)
	}
	watchtest.Eventually(t, "the storage watch to open", func() bool { return srv.store.lastWatch() != before })
	return bufio.NewReader(resp.Body), srv.store.lastWatch()
}

func expectEOF(t *testing.T, r *bufio.Reader) {
	t.Helper()
	if line, err := r.ReadBytes('\n'); err != io.EOF {
		t.Fatalf("stream did not end cleanly: %v %q", err, line)
	}
}

func TestCloseWatchesEveryEndsOpenStreamsCleanly(t *testing.T) {
	f := New(1)
	srv := newFaultyServer(t, f)
	r, fake := openWatch(t, srv)
	fake.Add(&api.Pod{TypeMeta: api.TypeMeta{ID: "a"}})
	if line, err := r.ReadBytes('\n'); err != nil || !strings.Contains(string(line), `"ADDED"`) {
		t.Fatalf("first event: %v %q", err, line)
	}

	// Set at run time through the admin endpoint: the open stream must
	// notice the new rule.
	if code, body := srv.do(t, "PUT", "/admin/faults", `{"closeWatchesEvery":"20ms"}`); code != 200 {
		t.Fatalf("PUT /admin/faults: HTTP %d %s", code, body)
	}
	expectEOF(t, r)
	watchtest.Eventually(t, "the storage watch to stop", fake.IsStopped)
	if got := srv.counted(t, map[string]string{"kind": "close_watch"}); got != 1 {
		t.Errorf("closed watches counted %v, want 1", got)
	}

	// A stream opened while the rule stands is closed too.
	r, fake = openWatch(t, srv)
	expectEOF(t, r)
	watchtest.Eventually(t, "the second storage watch to stop", fake.IsStopped)
}

func TestRulesMayNameOnlyServedResources(t *testing.T) {
	f := New(1)
	srv := newFaultyServer(t, f)
	code, body := srv.do(t, "PUT", "/admin/faults", `{"fail":[{"verb":"POST","resource":"nope","fraction":1,"code":503}]}`)
	if code != 400 || !strings.Contains(decodeStatus(t, body).Message, `"nope" is not served`) {
		t.Errorf("rule for an unknown resource: HTTP %d %s", code, body)
	}
	if code, body := srv.do(t, "PUT", "/admin/faults", `{"fail":[{"verb":"POST","resource":"pods","fraction":1,"code":503}]}`); code != 200 {
		t.Fatalf("PUT: HTTP %d %s", code, body)
	}
	if code, _ := srv.do(t, "POST", "/api/v1beta1/pods", `{"id":"a"}`); code != 503 {
		t.Errorf("POST after the rule: HTTP %d, want 503", code)
	}
	if n := srv.store.writeCount(); n != 0 {
		t.Errorf("storage saw %d writes", n)
	}
}
