package etcdpods

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// NewLearner returns a source reading pods from a learner of the etcd
// cluster at members, run in this process with its data in dir and its
// peer listener on peerPort (free, on loopback): lists from the learner,
// watches from an etcd.Tail of it, which has every event however large
// the batches the learner applies. Close stops the learner.
func NewLearner(members []string, dir string, peerPort int) (*Source, error) {
	l, err := etcd.StartLearner(etcd.Config{DataDir: dir, PeerPort: peerPort, NoFsync: true}, members)
	if err != nil {
		return nil, err
	}
	t, err := l.Tail(Prefix)
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("following the learner: %v", err)
	}
	s := New([]string{l.ClientURL()})
	s.learner, s.tail = l, t
	return s, nil
}

// NewTailReader returns a source reading pods from a learner run by
// another process (NewLearner): lists from the learner at member, a
// client URL, watches from its Tail there (etcd.TailPath), which drops
// nothing.
func NewTailReader(member string) *Source {
	s := New([]string{member})
	s.tailURL = member + etcd.TailPath
	return s
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

// watchTail sends the events of the source's tail after resourceVersion.
func (s *Source) watchTail(w *pollWatch, resourceVersion uint64) {
	go func() {
		defer close(w.result)
		sub, err := s.tail.Subscribe(resourceVersion)
		if err == nil {
			defer sub.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				select {
				case <-w.stop:
					cancel()
				case <-ctx.Done():
				}
			}()
			for {
				var events []*v2store.Event
				if events, err = sub.Next(ctx); err != nil {
					break
				}
				for _, e := range events {
					if !w.deliver(fromStore(e)) {
						return
					}
				}
			}
		}
		select {
		case <-w.stop:
			return
		default:
		}
		if err == etcd.ErrTailLost {
			w.send(watch.Event{Type: watch.Error, Object: statusOf(errors.NewGone(fmt.Sprintf("resourceVersion %d is too old to watch from: %v", resourceVersion, err)))})
			return
		}
		w.send(watch.Event{Type: watch.Error, Object: statusOf(errors.NewInternalError(err))})
	}()
}

// watchTailURL sends the events after resourceVersion that the tail at
// s.tailURL streams.
func (s *Source) watchTailURL(w *pollWatch, resourceVersion uint64) {
	ctx, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go func() {
		defer close(w.result)
		fail := func(err error) {
			if ctx.Err() == nil {
				w.send(watch.Event{Type: watch.Error, Object: statusOf(err)})
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.tailURL+"?after="+strconv.FormatUint(resourceVersion, 10), nil)
		if err != nil {
			fail(errors.NewInternalError(err))
			return
		}
		resp, err := s.http.Do(req)
		if err != nil {
			fail(errors.NewInternalError(err))
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			err := readError(resp)
			if gone, ok := err.(*etcdError); ok && gone.ErrorCode == eventIndexCleared {
				fail(errors.NewGone(fmt.Sprintf("resourceVersion %d is too old to watch from: %v", resourceVersion, gone)))
				return
			}
			fail(errors.NewInternalError(err))
			return
		}
		d := json.NewDecoder(resp.Body)
		for {
			var line struct {
				etcdEvent
				etcdError
			}
			if err := d.Decode(&line); err != nil {
				fail(errors.NewInternalError(fmt.Errorf("the learner's tail ended: %v", err)))
				return
			}
			if line.ErrorCode == eventIndexCleared {
				fail(errors.NewGone(fmt.Sprintf("the learner's tail lost events: %v", &line.etcdError)))
				return
			}
			if line.ErrorCode != 0 || line.Node == nil {
				fail(errors.NewInternalError(fmt.Errorf("the learner's tail sent %+v", line)))
				return
			}
			if !w.deliver(&line.etcdEvent) {
				return
			}
		}
	}()
}

func fromStore(e *v2store.Event) *etcdEvent {
	return &etcdEvent{Action: e.Action, Node: fromNode(e.Node), PrevNode: fromNode(e.PrevNode)}
}

func fromNode(n *v2store.NodeExtern) *etcdNode {
	if n == nil {
		return nil
	}
	value := ""
	if n.Value != nil {
		value = *n.Value
	}
	return &etcdNode{Key: n.Key, Value: value, Dir: n.Dir, ModifiedIndex: n.ModifiedIndex, CreatedIndex: n.CreatedIndex}
}
