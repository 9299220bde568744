package etcdpods

import (
	"fmt"
	"net/http"
)

// Ours: where the learner runs. In the benchmark's own process its CPU
// could not be told apart from the benchmark's (Go has no CPU figure per
// goroutine); run by ServeLearner in a process of its own (the hollow-node
// binary's -learner_of mode, which every stack has), the operating system
// counts it apart, and the laboratory's share names it. The apiserver's
// share of it, sending each entry to one more follower inside the
// apiserver's process, is not counted apart there: it is measured by
// running the same runs reading the members directly instead
// (pkg/lab/stack's LabMembers).

// NewLearner returns a source reading pods from a learner of the etcd
// cluster at members, run in this process with its data in dir and its
// peer listener on peerPort (free, on loopback): lists from the learner,
// watches from a tail of it, which has every event however large the
// batches the learner applies, and serves that tail to other processes
// (NewTailReader). Close stops the learner.
func NewLearner(members []string, dir string, peerPort int) (*Source, error) {
	return serveLearner(members, dir, peerPort, 0, nil)
}

// ServeLearner runs a learner of the etcd cluster at members in this
// process, as NewLearner does, with its client listener on clientPort,
// where it serves its tail to other processes (NewTailReader) and a
// /healthz that answers once the tail follows it. Close stops it and takes
// it out of the cluster.
func ServeLearner(members []string, dir string, peerPort, clientPort int) (*Source, error) {
	health := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	return serveLearner(members, dir, peerPort, clientPort, map[string]http.Handler{"/healthz": health})
}

func serveLearner(members []string, dir string, peerPort, clientPort int, more map[string]http.Handler) (*Source, error) {
	h := &tailHandler{}
	handlers := map[string]http.Handler{tailPath: h}
	for path, m := range more {
		// Served once the tail follows: a /healthz says it is ready.
		handlers[path] = whenFollowing(h, m)
	}
	l, err := startLearner(members, dir, peerPort, clientPort, handlers)
	if err != nil {
		return nil, err
	}
	t, err := followTail(l.Server, Prefix)
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("following the learner: %v", err)
	}
	h.tail.Store(t)
	s := New([]string{l.ClientURL()})
	s.learner, s.tail = l, t
	return s, nil
}

// whenFollowing serves next once h has its tail, and 503 before.
func whenFollowing(h *tailHandler, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h.tail.Load() == nil {
			http.Error(w, "the learner's tail does not follow it yet", http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Close stops the learner of a source made by NewLearner; calling it
// again does nothing.
func (s *Source) Close() {
	if s.learner == nil {
		return
	}
	s.closed.Do(func() {
		s.tail.Close()
		s.learner.Close()
	})
}

// LearnerURL returns the client URL of the source's learner, if it has one.
func (s *Source) LearnerURL() string {
	if s.learner == nil {
		return ""
	}
	return s.learner.ClientURL()
}
