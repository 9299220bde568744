package etcdpods

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"

	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// Ours: the laboratory's reading of a learner, in its own process. Over
// HTTP a learner kept up no better than the member the apiserver embeds:
// it applies what the leader commits in batches, and in a scale-up of
// 10 000 pods one apply took its index further past the last event its
// watchers had seen than etcd's window of 1 000 events, in a fraction of
// a second, before a stream's handler or a long poll could run. A
// watcher etcd holds is told of its event while the event is applied,
// whenever its reader runs: a tail keeps tailAhead such watchers
// waiting, one at each of the next indexes, and so has each event
// however large the batch, unless more than tailAhead plus etcd's 1 000
// arrive before it runs.

// tailAhead is how many watchers a tail keeps waiting ahead of the last
// event it has. Each costs etcd a comparison for every event applied
// under the prefix.
const tailAhead = 1024

// tailKept is how many of its latest events a tail keeps for a
// subscription from before them.
const tailKept = 20000

// errTailLost is the error of a subscription that has lost events: the
// tail fell more than etcd's window behind, or the subscription asked for
// events older than the tail keeps.
var errTailLost = errors.New("the tail lost events: read everything again")

// tail follows every change under a prefix of a member's v2 store, in
// index order, without gaps.
type tail struct {
	srv    watchable
	prefix string
	stop   chan struct{}
	done   chan struct{}
	// held is taken by the tail as it takes each event in: holding it
	// holds the tail back, as a busy scheduler would. Only tests hold it.
	held sync.Mutex

	mu sync.Mutex
	// kept holds the latest events; every event after covered is there.
	kept    []*v2store.Event
	covered uint64
	subs    map[*subscription]bool
	err     error
	// keep is how many events kept is cut to once it holds twice as
	// many: tailKept, which tests lower.
	keep int
}

// watchable is a v2 store a tail follows: a learner's member
// (etcd.Server), or a store of the laboratory's own (StoreWatch).
type watchable interface {
	Watch(key string, since uint64) (v2store.Watcher, error)
}

// StoreWatch is a v2 store as a tail follows it: a watcher of a key of the
// v2 API (below the store's keys prefix) and everything under it, since
// an index, 0 meaning the next change, as etcd.Server.Watch is.
type StoreWatch struct{ Store v2store.Store }

// Watch returns a watcher of key's subtree from since.
func (s StoreWatch) Watch(key string, since uint64) (v2store.Watcher, error) {
	return s.Store.Watch(path.Join(etcdserver.StoreKeysPrefix, key), true, false, since)
}

// followTail starts following the keys of srv under prefix (a key of the
// v2 API, such as /registry/pods) from this moment.
func followTail(srv watchable, prefix string) (*tail, error) {
	t := &tail{srv: srv, prefix: prefix, stop: make(chan struct{}), done: make(chan struct{}), keep: tailKept, subs: map[*subscription]bool{}}
	now, err := t.index()
	if err != nil {
		return nil, err
	}
	t.covered = now
	go t.run(now)
	return t, nil
}

// fedTail is a tail that watches nothing: its owner, which applies every
// write to the store itself, hands it each event (add) in index order,
// from index on. It spares the store's watcher hub the watchers a
// following tail keeps waiting ahead.
func fedTail(index uint64) *tail {
	t := &tail{stop: make(chan struct{}), done: make(chan struct{}), keep: tailKept, subs: map[*subscription]bool{}, covered: index}
	close(t.done)
	return t
}

// Close stops the tail; its subscriptions end with an error.
func (t *tail) Close() {
	select {
	case <-t.stop:
	default:
		close(t.stop)
	}
	<-t.done
}

// index returns the store's index now.
func (t *tail) index() (uint64, error) {
	w, err := t.srv.Watch(t.prefix, 0)
	if err != nil {
		return 0, err
	}
	defer w.Remove()
	return w.StartIndex(), nil
}

func (t *tail) run(last uint64) {
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
			w, err := t.srv.Watch(t.prefix, ahead+1)
			if err != nil {
				// Gone from etcd's window before a watcher waited for
				// it: every subscription has lost events; the tail
				// goes on from now.
				now, ierr := t.index()
				if ierr != nil {
					t.fail(fmt.Errorf("the tail stopped: %v", ierr))
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
			t.fail(errors.New("the tail was closed"))
			return
		}
		t.held.Lock()
		t.held.Unlock()
		if e == nil {
			// Removed by etcd: the member is stopping.
			t.fail(errors.New("the learner stopped"))
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

func (t *tail) add(e *v2store.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kept = append(t.kept, e)
	if len(t.kept) > 2*t.keep {
		t.covered = t.kept[len(t.kept)-t.keep-1].Index()
		t.kept = append([]*v2store.Event(nil), t.kept[len(t.kept)-t.keep:]...)
	}
	// A subscription can begin after an index the tail has not reached:
	// the store the caller read its index from runs ahead of the tail.
	for s := range t.subs {
		if e.Index() > s.after {
			s.push(e)
		}
	}
}

// lose ends every subscription with errTailLost and forgets every event:
// the tail has every event after now only.
func (t *tail) lose(now uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kept, t.covered = nil, now
	for s := range t.subs {
		s.end(errTailLost)
		delete(t.subs, s)
	}
}

func (t *tail) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.err = err
	for s := range t.subs {
		s.end(err)
		delete(t.subs, s)
	}
}

// Subscribe returns every event after index after, those the tail already
// has first; errTailLost if it no longer has them all.
func (t *tail) Subscribe(after uint64) (*subscription, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		return nil, t.err
	}
	if after < t.covered {
		return nil, errTailLost
	}
	s := &subscription{t: t, after: after, ready: make(chan struct{}, 1)}
	for _, e := range t.kept {
		if e.Index() > after {
			s.push(e)
		}
	}
	t.subs[s] = true
	return s, nil
}

// subscription is one reader's share of a tail: every event, held without
// limit until read.
type subscription struct {
	t     *tail
	mu    sync.Mutex
	queue []*v2store.Event
	err   error
	ready chan struct{}
	// after is the index the subscription began after.
	after uint64
}

func (s *subscription) push(e *v2store.Event) {
	s.mu.Lock()
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	s.wake()
}

func (s *subscription) end(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
	s.wake()
}

func (s *subscription) wake() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// Next returns the events that came since the last call, waiting for one
// if there are none; after the last of them, the error that ended the
// subscription.
func (s *subscription) Next(ctx context.Context) ([]*v2store.Event, error) {
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
func (s *subscription) Close() {
	s.t.mu.Lock()
	delete(s.t.subs, s)
	s.t.mu.Unlock()
	s.end(errors.New("the subscription was closed"))
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
					if !w.deliver(e) {
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
		if err == errTailLost {
			w.send(watch.Event{Type: watch.Error, Object: statusOf(apierrors.NewGone(fmt.Sprintf("resourceVersion %d is too old to watch from: %v", resourceVersion, err)))})
			return
		}
		w.send(watch.Event{Type: watch.Error, Object: statusOf(apierrors.NewInternalError(err))})
	}()
}
