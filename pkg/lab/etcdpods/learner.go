package etcdpods

import (
	"fmt"
	"net/http"
)

// NewLearner returns a source reading pods from a learner of the etcd
// cluster at members, run in this process with its data in dir and its
// peer listener on peerPort (free, on loopback): lists from the learner,
// watches from a tail of it, which has every event however large the
// batches the learner applies, and serves that tail to other processes
// (NewTailReader). Close stops the learner.
func NewLearner(members []string, dir string, peerPort int) (*Source, error) {
	h := &tailHandler{}
	l, err := startLearner(members, dir, peerPort, map[string]http.Handler{tailPath: h})
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
