//go:build !modern

package controller

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
)

// slowPodServer is an apiserver whose pod creates stay "working" for delay
// after each POST, and which counts every POST.
type slowPodServer struct {
	t     *testing.T
	rc    api.ReplicationController
	delay time.Duration
	stop  chan struct{}

	mu      sync.Mutex
	posts   int
	pending map[string]time.Time
	pods    []api.Pod
	lists   int
}

func (s *slowPodServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/v1beta1/watch/") {
		// A watch that sends nothing: only the ticks drive this manager.
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/api/v1beta1/")
	switch {
	case r.Method == "GET" && path == "replicationControllers":
		s.write(w, http.StatusOK, &api.ReplicationControllerList{Items: []api.ReplicationController{s.rc}})
	case r.Method == "GET" && path == "pods":
		s.lists++
		s.write(w, http.StatusOK, &api.PodList{Items: append([]api.Pod(nil), s.pods...)})
	case r.Method == "POST" && path == "pods":
		s.posts++
		id := fmt.Sprint(s.posts)
		s.pending[id] = time.Now().Add(s.delay)
		s.write(w, http.StatusAccepted, registrytest.Working(id))
	case r.Method == "GET" && strings.HasPrefix(path, "operations/"):
		id := strings.TrimPrefix(path, "operations/")
		due, ok := s.pending[id]
		switch {
		case !ok:
			s.write(w, http.StatusNotFound, &api.Status{Status: api.StatusFailure, Code: 404, Reason: api.StatusReasonNotFound})
		case time.Now().Before(due):
			s.write(w, http.StatusAccepted, registrytest.Working(id))
		default:
			delete(s.pending, id)
			pod := api.Pod{TypeMeta: api.TypeMeta{ID: "pod-" + id}, Labels: s.rc.DesiredState.PodTemplate.Labels}
			s.pods = append(s.pods, pod)
			s.write(w, http.StatusOK, &pod)
		}
	default:
		s.t.Errorf("unexpected %s %s", r.Method, r.URL)
		w.WriteHeader(http.StatusNotFound)
	}
}

func (s *slowPodServer) write(w http.ResponseWriter, code int, obj api.Object) {
	data, err := api.Encode(obj)
	if err != nil {
		s.t.Errorf("encoding %T: %v", obj, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(data)
}

func (s *slowPodServer) counts() (posts, pods, lists int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts, len(s.pods), s.lists
}

// A create that takes far longer than the client's Timeout and than the
// manager's period still creates each missing pod once: the client polls
// until the operation answers, as v0.4's did, and the sync waits for its
// creates, so no tick lists the pods while they are still on their way. A
// client that gave up after Timeout would let every later tick create the
// same pods again.
func TestSlowCreatesAreWaitedForAndNotSentAgain(t *testing.T) {
	s := &slowPodServer{t: t, rc: newReplicationController(3), delay: 300 * time.Millisecond,
		stop: make(chan struct{}), pending: map[string]time.Time{}}
	server := httptest.NewServer(s)
	t.Cleanup(server.Close)
	t.Cleanup(func() { close(s.stop) })
	c := client.NewOrDie(&client.Config{Host: server.URL, Timeout: 5 * time.Millisecond, PollPeriod: 5 * time.Millisecond})
	manager := NewReplicationManager(c)
	manager.Run(20 * time.Millisecond)

	deadline := time.Now().Add(30 * time.Second)
	for {
		posts, pods, lists := s.counts()
		// Several ticks after the pods landed, each listing all three.
		if pods == 3 && lists >= 5 {
			if posts != 3 {
				t.Fatalf("the manager sent %d creates for 3 replicas", posts)
			}
			return
		}
		if posts > 3 {
			t.Fatalf("the manager sent %d creates for 3 replicas", posts)
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: %d creates, %d pods, %d pod lists", posts, pods, lists)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
