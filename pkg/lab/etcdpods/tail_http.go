package etcdpods

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"

	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2error"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// tailPath is where a learner's client listener streams its tail's events
// to another process: GET tailPath?after=N sends every event after index
// N as etcd's v2 watch writes them, one JSON object a line, for as long
// as the request lasts, none dropped; a line with an errorCode ends it
// (401: the tail no longer has the events asked for, or lost some).
const tailPath = "/kube-rewind/tail"

// tailHandler serves tailPath once its tail is set.
type tailHandler struct {
	tail atomic.Pointer[tail]
}

// outdated is etcd's error for events it no longer has.
func outdated(cause string, index uint64) *v2error.Error {
	return v2error.NewError(v2error.EcodeEventIndexCleared, cause, index)
}

// onTheWire is e as etcd's v2 API writes it: keys without the store's
// prefix.
func onTheWire(e *v2store.Event) *v2store.Event {
	c := e.Clone()
	for _, n := range []*v2store.NodeExtern{c.Node, c.PrevNode} {
		if n != nil {
			n.Key = strings.TrimPrefix(n.Key, etcdserver.StoreKeysPrefix)
		}
	}
	return c
}

func (h *tailHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := h.tail.Load()
	if t == nil {
		http.Error(w, "this learner has no tail yet", http.StatusServiceUnavailable)
		return
	}
	after, err := strconv.ParseUint(r.URL.Query().Get("after"), 10, 64)
	if err != nil {
		http.Error(w, "after must be an etcd index", http.StatusBadRequest)
		return
	}
	sub, err := t.Subscribe(after)
	if err == errTailLost {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(outdated(err.Error(), after))
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	defer sub.Close()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	enc := json.NewEncoder(w)
	for {
		events, err := sub.Next(r.Context())
		for _, e := range events {
			if enc.Encode(onTheWire(e)) != nil {
				return
			}
		}
		if err == errTailLost {
			enc.Encode(outdated(err.Error(), 0))
		}
		if err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// NewTailReader returns a source reading pods from a learner run by
// another process (NewLearner): lists from the learner at member, a
// client URL, watches from its tail there (tailPath), which drops
// nothing.
func NewTailReader(member string) *Source {
	s := New([]string{member})
	s.tailURL = member + tailPath
	return s
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
			fail(apierrors.NewInternalError(err))
			return
		}
		resp, err := s.http.Do(req)
		if err != nil {
			fail(apierrors.NewInternalError(err))
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			err := readError(resp)
			if gone, ok := err.(*v2error.Error); ok && gone.ErrorCode == v2error.EcodeEventIndexCleared {
				fail(apierrors.NewGone(fmt.Sprintf("resourceVersion %d is too old to watch from: %v", resourceVersion, gone)))
				return
			}
			fail(apierrors.NewInternalError(err))
			return
		}
		d := json.NewDecoder(resp.Body)
		for {
			// A line is an event or an error.
			var line struct {
				v2store.Event
				v2error.Error
			}
			if err := d.Decode(&line); err != nil {
				fail(apierrors.NewInternalError(fmt.Errorf("the learner's tail ended: %v", err)))
				return
			}
			if line.ErrorCode == v2error.EcodeEventIndexCleared {
				fail(apierrors.NewGone(fmt.Sprintf("the learner's tail lost events: %v", line.Error.Error())))
				return
			}
			if line.ErrorCode != 0 || line.Node == nil {
				fail(apierrors.NewInternalError(fmt.Errorf("the learner's tail sent error %d or an event without a node", line.ErrorCode)))
				return
			}
			if !w.deliver(&line.Event) {
				return
			}
		}
	}()
}
