package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// stubAPIServer is a small in-memory v1beta1 apiserver: enough of the 2014
// REST surface (list with labels=, get, create, update with
// resourceVersion checks, delete, Status errors) for kubecfg to run
// against. It records every request line.
type stubAPIServer struct {
	*httptest.Server
	t       *testing.T
	mu      sync.Mutex
	objects map[string]map[string]api.Object
	nextRV  uint64
	seen    []string
	bodies  []string
}

var stubKinds = map[string]string{
	"pods":                   "Pod",
	"replicationControllers": "ReplicationController",
	"services":               "Service",
	"endpoints":              "Endpoints",
	"minions":                "Minion",
}

func newStubAPIServer(t *testing.T) *stubAPIServer {
	s := &stubAPIServer{t: t, objects: map[string]map[string]api.Object{}, nextRV: 1}
	for resource := range stubKinds {
		s.objects[resource] = map[string]api.Object{}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// add stores obj under resource, as a POST would.
func (s *stubAPIServer) add(resource string, obj api.Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	meta := obj.GetTypeMeta()
	meta.ResourceVersion = s.nextRV
	s.nextRV++
	s.objects[resource][meta.ID] = obj
}

func (s *stubAPIServer) get(resource, id string) api.Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objects[resource][id]
}

func (s *stubAPIServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

func (s *stubAPIServer) lastBody() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.bodies) == 0 {
		return ""
	}
	return s.bodies[len(s.bodies)-1]
}

func (s *stubAPIServer) write(w http.ResponseWriter, code int, obj api.Object) {
	data, err := api.Encode(obj)
	if err != nil {
		s.t.Errorf("stub: encoding %T: %v", obj, err)
	}
	w.WriteHeader(code)
	w.Write(data)
}

func (s *stubAPIServer) fail(w http.ResponseWriter, err error) {
	status := err.(apierrors.APIStatus).Status()
	s.write(w, status.Code, &status)
}

func (s *stubAPIServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, r.Method+" "+r.URL.RequestURI())
	if len(body) > 0 {
		s.bodies = append(s.bodies, string(body))
	}
	s.mu.Unlock()

	if r.URL.Path == "/version" {
		w.Write([]byte(`{"major":"0","minor":"4","gitVersion":"v0.4","gitCommit":"","gitTreeState":"clean"}`))
		return
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v1beta1/"), "/")
	kind, known := stubKinds[parts[0]]
	if !known || len(parts) > 2 || (len(parts) == 2 && parts[1] == "broken") {
		// 2014 answered unknown paths with plain text, not a Status.
		http.Error(w, fmt.Sprintf("Not Found: %q", r.URL.RequestURI()), http.StatusNotFound)
		return
	}
	resource := parts[0]
	id := ""
	if len(parts) == 2 {
		id = parts[1]
	}
	kindName := strings.ToLower(kind[:1]) + kind[1:]

	s.mu.Lock()
	defer s.mu.Unlock()
	store := s.objects[resource]
	switch {
	case r.Method == "GET" && id == "":
		selector, err := labels.ParseSelector(r.URL.Query().Get("labels"))
		if err != nil {
			s.fail(w, apierrors.NewBadRequest(err.Error()))
			return
		}
		s.write(w, http.StatusOK, s.list(resource, selector))
	case r.Method == "GET":
		obj, ok := store[id]
		if !ok {
			s.fail(w, apierrors.NewNotFound(kindName, id))
			return
		}
		s.write(w, http.StatusOK, obj)
	case r.Method == "DELETE":
		if _, ok := store[id]; !ok {
			s.fail(w, apierrors.NewNotFound(kindName, id))
			return
		}
		delete(store, id)
		s.write(w, http.StatusOK, &api.Status{Status: api.StatusSuccess})
	case r.Method == "POST" || r.Method == "PUT":
		obj, _ := api.New(kind)
		if err := api.DecodeInto(body, obj); err != nil {
			s.fail(w, apierrors.NewBadRequest(err.Error()))
			return
		}
		meta := obj.GetTypeMeta()
		if rc, ok := obj.(*api.ReplicationController); ok && rc.DesiredState.Replicas < 0 {
			s.fail(w, apierrors.NewInvalid(kindName, meta.ID, apierrors.ErrorList{
				apierrors.NewFieldInvalid("desiredState.replicas", rc.DesiredState.Replicas)}))
			return
		}
		old, exists := store[meta.ID]
		switch {
		case r.Method == "POST" && exists:
			s.fail(w, apierrors.NewAlreadyExists(kindName, meta.ID))
			return
		case r.Method == "PUT" && (!exists || old.GetTypeMeta().ResourceVersion != meta.ResourceVersion):
			s.fail(w, apierrors.NewConflict(kindName, meta.ID, fmt.Errorf("101: Compare failed")))
			return
		}
		meta.ResourceVersion = s.nextRV
		s.nextRV++
		store[meta.ID] = obj
		s.write(w, http.StatusOK, obj)
	default:
		http.Error(w, "Not Found", http.StatusNotFound)
	}
}

// list returns the list kind of resource with the items whose labels match.
func (s *stubAPIServer) list(resource string, selector labels.Selector) api.Object {
	ids := make([]string, 0, len(s.objects[resource]))
	for id := range s.objects[resource] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	switch resource {
	case "pods":
		out := &api.PodList{Items: []api.Pod{}}
		for _, id := range ids {
			pod := s.objects[resource][id].(*api.Pod)
			if selector.Matches(labels.Set(pod.Labels)) {
				out.Items = append(out.Items, *pod)
			}
		}
		return out
	case "replicationControllers":
		out := &api.ReplicationControllerList{}
		for _, id := range ids {
			out.Items = append(out.Items, *s.objects[resource][id].(*api.ReplicationController))
		}
		return out
	case "services":
		out := &api.ServiceList{}
		for _, id := range ids {
			out.Items = append(out.Items, *s.objects[resource][id].(*api.Service))
		}
		return out
	case "endpoints":
		out := &api.EndpointsList{}
		for _, id := range ids {
			out.Items = append(out.Items, *s.objects[resource][id].(*api.Endpoints))
		}
		return out
	default:
		out := &api.MinionList{}
		for _, id := range ids {
			out.Items = append(out.Items, *s.objects[resource][id].(*api.Minion))
		}
		out.Minions = out.Items
		return out
	}
}
