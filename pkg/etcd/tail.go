package etcd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// Ours: the laboratory's reading of a learner, in its own process. Over
// HTTP a learner kept up no better than the member the apiserver embeds:
// it applies what the leader commits in batches, and in a scale-up of
// 10 000 pods one apply took its index 3 000 past the last event its
// watchers had seen within 145 ms, out of etcd's window of 1 000 events
// before a stream's handler or a long poll could run. A watcher etcd
// holds is told of its event while the event is applied, whenever its
// reader runs: a Tail keeps tailAhead such watchers waiting, one at each
// of the next indexes, and so has each event however large the batch,
// unless more than tailAhead plus etcd's 1 000 arrive before it runs.

// tailAhead is how many watchers a Tail keeps waiting ahead of the last
// event it has. Each costs etcd a comparison for every event applied
// under the prefix.
const tailAhead = 1024

// tailKept is how many of its latest events a Tail keeps for a
// subscription from before them.
const tailKept = 20000

// ErrTailLost is the error of a subscription that has lost events: the
// Tail fell more than etcd's window behind, or the subscription asked for
// events older than the Tail keeps.
var ErrTailLost = errors.New("etcd: the tail lost events: read everything again")

// Tail follows every change under a prefix of this member's v2 store, in
// index order, without gaps.
type Tail struct {
	srv  *etcdserver.EtcdServer
	path string
	stop chan struct{}
	done chan struct{}

	mu sync.Mutex
	// kept holds the latest events; every event after covered is there.
	kept    []*v2store.Event
	covered uint64
	subs    map[*Subscription]bool
	err     error
}

// Tail starts following the keys under prefix (a key of the v2 API, such
// as /registry/pods) from this moment.
func (s *Server) Tail(prefix string) (*Tail, error) {
	t := &Tail{srv: s.etcd.Server, path: "/1" + prefix, stop: make(chan struct{}), done: make(chan struct{}), subs: map[*Subscription]bool{}}
	now, err := t.index()
	if err != nil {
		return nil, err
	}
	t.covered = now
	go t.run(now)
	s.tails.tail.Store(t)
	return t, nil
}

// Close stops the tail; its subscriptions end with an error.
func (t *Tail) Close() {
	select {
	case <-t.stop:
	default:
		close(t.stop)
	}
	<-t.done
}

// watch registers a watcher for the first event under the prefix at index
// since or after (0: the next one).
func (t *Tail) watch(since uint64) (v2store.Watcher, error) {
	resp, err := t.srv.Do(context.Background(), pb.Request{Method: "GET", Path: t.path, Recursive: true, Wait: true, Since: since})
	if err != nil {
		return nil, err
	}
	return resp.Watcher, nil
}

// index returns the store's index now.
func (t *Tail) index() (uint64, error) {
	w, err := t.watch(0)
	if err != nil {
		return 0, err
	}
	defer w.Remove()
	return w.StartIndex(), nil
}

func (t *Tail) run(last uint64) {
	defer close(t.done)
	waiting := map[uint64]v2store.Watcher{}
	defer func() {
		for _, w := range waiting {
			w.Remove()
		}
	}()
	// ahead is the highest index a watcher waits for.
	ahead := last
	for {
		for ; ahead < last+tailAhead; ahead++ {
			w, err := t.watch(ahead + 1)
			if err != nil {
				// Gone from etcd's window before a watcher waited for
				// it: every subscription has lost events; the tail
				// goes on from now.
				now, ierr := t.index()
				if ierr != nil {
					t.fail(fmt.Errorf("etcd: the tail stopped: %v", ierr))
					return
				}
				for i, w := range waiting {
					w.Remove()
					delete(waiting, i)
				}
				t.lose(now)
				last, ahead = now, now
				break
			}
			waiting[ahead+1] = w
		}
		w := waiting[last+1]
		if w == nil {
			continue
		}
		var e *v2store.Event
		select {
		case e = <-w.EventChan():
		case <-t.stop:
			t.fail(errors.New("etcd: the tail was closed"))
			return
		}
		if e == nil {
			// Removed by etcd: the member is stopping.
			t.fail(errors.New("etcd: the member stopped"))
			return
		}
		// The watchers from last+1 to its index all wait for this event.
		for i := last + 1; i <= e.Index(); i++ {
			if w := waiting[i]; w != nil {
				w.Remove()
				delete(waiting, i)
			}
		}
		last = e.Index()
		if ahead < last {
			ahead = last
		}
		t.add(e)
	}
}

func (t *Tail) add(e *v2store.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kept = append(t.kept, e)
	if len(t.kept) > 2*tailKept {
		t.covered = t.kept[len(t.kept)-tailKept-1].Index()
		t.kept = append([]*v2store.Event(nil), t.kept[len(t.kept)-tailKept:]...)
	}
	for s := range t.subs {
		s.push(e)
	}
}

// lose ends every subscription with ErrTailLost and forgets every event:
// the tail has every event after now only.
func (t *Tail) lose(now uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kept, t.covered = nil, now
	for s := range t.subs {
		s.end(ErrTailLost)
		delete(t.subs, s)
	}
}

func (t *Tail) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.err = err
	for s := range t.subs {
		s.end(err)
		delete(t.subs, s)
	}
}

// Subscribe returns every event after index after, those the tail already
// has first; ErrTailLost if it no longer has them all.
func (t *Tail) Subscribe(after uint64) (*Subscription, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	if after < t.covered {
		return nil, ErrTailLost
	}
	s := &Subscription{t: t, ready: make(chan struct{}, 1)}
	for _, e := range t.kept {
		if e.Index() > after {
			s.push(e)
		}
	}
	t.subs[s] = true
	return s, nil
}

// Subscription is one reader's share of a Tail: every event, held without
// limit until read.
type Subscription struct {
	t     *Tail
	mu    sync.Mutex
	queue []*v2store.Event
	err   error
	ready chan struct{}
}

func (s *Subscription) push(e *v2store.Event) {
	s.mu.Lock()
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	s.wake()
}

func (s *Subscription) end(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.wake()
}

func (s *Subscription) wake() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next returns the events that came since the last call, waiting for one
// if there are none; after the last of them, the error that ended the
// subscription.
func (s *Subscription) Next(ctx context.Context) ([]*v2store.Event, error) {
	for {
		s.mu.Lock()
		q, err := s.queue, s.err
		s.queue = nil
		s.mu.Unlock()
		if len(q) > 0 {
			return q, nil
		}
		if err != nil {
			return nil, err
		}
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Close ends the subscription.
func (s *Subscription) Close() {
	s.t.mu.Lock()
	delete(s.t.subs, s)
	s.t.mu.Unlock()
	s.end(errors.New("etcd: the subscription was closed"))
}

// TailPath is where a member's client listener streams its Tail's events
// to another process: GET TailPath?after=N sends every event after index N
// as etcd's v2 watch would, one JSON object a line, for as long as the
// request lasts, none dropped; a line with an errorCode ends it (401: the
// tail no longer has the events asked for, or lost some).
const TailPath = "/kube-rewind/tail"

type tailHandler struct {
	tail atomic.Pointer[Tail]
}

// wireNode and wireEvent are an event as etcd's v2 API writes it.
type wireNode struct {
	Key           string `json:"key"`
	Value         string `json:"value,omitempty"`
	Dir           bool   `json:"dir,omitempty"`
	ModifiedIndex uint64 `json:"modifiedIndex"`
	CreatedIndex  uint64 `json:"createdIndex"`
}

type wireEvent struct {
	Action   string    `json:"action"`
	Node     *wireNode `json:"node,omitempty"`
	PrevNode *wireNode `json:"prevNode,omitempty"`
}

type wireError struct {
	ErrorCode int    `json:"errorCode"`
	Message   string `json:"message"`
	Cause     string `json:"cause"`
	Index     uint64 `json:"index"`
}

func toWire(n *v2store.NodeExtern) *wireNode {
	if n == nil {
		return nil
	}
	w := &wireNode{Key: strings.TrimPrefix(n.Key, "/1"), Dir: n.Dir, ModifiedIndex: n.ModifiedIndex, CreatedIndex: n.CreatedIndex}
	if n.Value != nil {
		w.Value = *n.Value
	}
	return w
}

func (h *tailHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	t := h.tail.Load()
	if t == nil {
		http.Error(w, "this member has no tail", http.StatusNotFound)
		return
	}
	after, err := strconv.ParseUint(r.URL.Query().Get("after"), 10, 64)
	if err != nil {
		http.Error(w, "after must be an etcd index", http.StatusBadRequest)
		return
	}
	sub, err := t.Subscribe(after)
	if err == ErrTailLost {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(wireError{ErrorCode: 401, Message: "The event in requested index is outdated and cleared", Cause: err.Error(), Index: after})
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
			if enc.Encode(wireEvent{Action: e.Action, Node: toWire(e.Node), PrevNode: toWire(e.PrevNode)}) != nil {
				return
			}
		}
		if err == ErrTailLost {
			enc.Encode(wireError{ErrorCode: 401, Message: "The event in requested index is outdated and cleared", Cause: err.Error()})
		}
		if err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
	}
}
