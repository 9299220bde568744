package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/apiserver_test.go as of v0.4
// (October 2014) in its test double: SimpleRESTStorage records what the
// handlers asked of it and answers from fields the test sets.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Simple is the object the fake storage serves.
type Simple struct {
	api.TypeMeta `json:",inline"`
	Name         string            `json:"name,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
}

// SimpleList is a list of Simple.
type SimpleList struct {
	api.TypeMeta `json:",inline"`
	Items        []Simple `json:"items,omitempty"`
}

// SimpleRESTStorage is an in-memory RESTStorage and ResourceWatcher that
// records every call.
type SimpleRESTStorage struct {
	mu sync.Mutex

	// errors, by method name ("list", "get", "create", "update", "delete",
	// "watch"), are returned before any work starts.
	errors map[string]error
	list   []Simple
	item   Simple

	// What the handlers asked for.
	requestedID            string
	requestedLabel         labels.Selector
	requestedField         labels.Selector
	requestedVersion       uint64
	requestedNamespace     string
	requestedNamespaceSet  bool
	created, updated       []*Simple
	deleted                []string
	writes                 int
	fakeWatch              *watch.FakeWatcher
	watchOpened            chan *watch.FakeWatcher
	panicIn                string
	injectedFunction       func(obj api.Object) (api.Object, error)
	block                  chan struct{}
	workStarted, workEnded int
}

func newSimpleStorage() *SimpleRESTStorage {
	return &SimpleRESTStorage{errors: map[string]error{}, watchOpened: make(chan *watch.FakeWatcher, 8)}
}

// New returns an empty Simple.
func (s *SimpleRESTStorage) New() api.Object { return &Simple{} }

// List returns the list field.
func (s *SimpleRESTStorage) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybePanic("list")
	s.requestedLabel, s.requestedField = label, field
	s.requestedNamespace, s.requestedNamespaceSet = api.NamespaceFrom(ctx)
	if err := s.errors["list"]; err != nil {
		return nil, err
	}
	return &SimpleList{Items: append([]Simple{}, s.list...)}, nil
}

// Get returns a copy of the item field.
func (s *SimpleRESTStorage) Get(ctx api.Context, id string) (api.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybePanic("get")
	s.requestedID = id
	if err := s.errors["get"]; err != nil {
		return nil, err
	}
	item := s.item
	return &item, nil
}

// Create records obj and hands it back.
func (s *SimpleRESTStorage) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybePanic("create")
	s.writes++
	s.created = append(s.created, obj.(*Simple))
	if err := s.errors["create"]; err != nil {
		return nil, err
	}
	return s.work(obj), nil
}

// Update records obj and hands it back.
func (s *SimpleRESTStorage) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybePanic("update")
	s.writes++
	s.updated = append(s.updated, obj.(*Simple))
	if err := s.errors["update"]; err != nil {
		return nil, err
	}
	return s.work(obj), nil
}

// Delete records id and answers Success.
func (s *SimpleRESTStorage) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maybePanic("delete")
	s.writes++
	s.deleted = append(s.deleted, id)
	if err := s.errors["delete"]; err != nil {
		return nil, err
	}
	return s.work(&api.Status{Status: api.StatusSuccess}), nil
}

// work runs the asynchronous half of a write: it waits for block to close
// (when set), then returns obj or what injectedFunction makes of it.
func (s *SimpleRESTStorage) work(obj api.Object) <-chan api.Object {
	block, inject, panicIn := s.block, s.injectedFunction, s.panicIn
	s.workStarted++
	return MakeAsync(func() (api.Object, error) {
		defer func() {
			s.mu.Lock()
			s.workEnded++
			s.mu.Unlock()
		}()
		if block != nil {
			<-block
		}
		if panicIn == "work" {
			panic("work panics on purpose")
		}
		if inject != nil {
			return inject(obj)
		}
		return obj, nil
	})
}

// Watch opens a FakeWatcher and announces it on watchOpened.
func (s *SimpleRESTStorage) Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requestedLabel, s.requestedField, s.requestedVersion = label, field, resourceVersion
	s.requestedNamespace, s.requestedNamespaceSet = api.NamespaceFrom(ctx)
	if err := s.errors["watch"]; err != nil {
		return nil, err
	}
	s.fakeWatch = watch.NewFake()
	s.watchOpened <- s.fakeWatch
	return s.fakeWatch, nil
}

func (s *SimpleRESTStorage) maybePanic(method string) {
	if s.panicIn == method {
		panic(method + " panics on purpose")
	}
}

func (s *SimpleRESTStorage) writeCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.writes
}

// UnwatchableStorage serves a resource that cannot be watched: embedding the
// interface hides SimpleRESTStorage's Watch.
type UnwatchableStorage struct {
	RESTStorage
}

// testServer is one handler behind a loopback httptest server.
type testServer struct {
	*apiServer
	http    *httptest.Server
	client  *http.Client
	storage *SimpleRESTStorage
}

// newTestServer serves a SimpleRESTStorage as "simple" and an unwatchable
// one as "unwatchable" under /api/v1beta1.
// quickEnough is the AsyncOpWait of tests whose writes must answer with
// their result: the fake storage is quick, but on a busy machine its work
// can take longer than the default 25 ms, and the answer would be a 202.
// Tests of the 202 block the storage instead and keep the default.
const quickEnough = time.Minute

func newTestServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	storage := newSimpleStorage()
	if opts.Registry == nil {
		opts.Registry = prometheus.NewRegistry()
	}
	s := newAPIServer(map[string]RESTStorage{
		"simple":      storage,
		"unwatchable": UnwatchableStorage{newSimpleStorage()},
	}, "/api/v1beta1", opts)
	server := httptest.NewServer(s)
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(func() {
		client.CloseIdleConnections()
		server.Close()
	})
	return &testServer{apiServer: s, http: server, client: client, storage: storage}
}

// do sends one request and returns the response with its body read.
func (ts *testServer) do(t *testing.T, method, path, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.http.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body == "" {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, path, err)
	}
	return resp, out
}

// decodeStatus reads body as a Status and fails unless it is one, with the
// kind and apiVersion the wire requires.
func decodeStatus(t *testing.T, body []byte) *api.Status {
	t.Helper()
	var head struct {
		Kind       string `json:"kind"`
		APIVersion string `json:"apiVersion"`
	}
	if err := json.Unmarshal(body, &head); err != nil || head.Kind != "Status" || head.APIVersion != api.Version {
		t.Fatalf("body is not a v1beta1 Status (%v): %s", err, body)
	}
	status := &api.Status{}
	if err := api.DecodeInto(body, status); err != nil {
		t.Fatalf("decoding Status: %v: %s", err, body)
	}
	return status
}

// decodeSimple reads body as a Simple.
func decodeSimple(t *testing.T, body []byte) *Simple {
	t.Helper()
	out := &Simple{}
	if err := api.DecodeInto(body, out); err != nil {
		t.Fatalf("body is not a Simple: %v: %s", err, body)
	}
	return out
}
