package etcdpods

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2error"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// Prefix is where the apiserver keeps pods: the 2014 key layout of
// pkg/registry/etcd, /registry/pods/<id>.
const Prefix = "/registry/pods"

// Source lists and watches the pods the apiserver stores, in etcd.
type Source struct {
	servers []string
	helper  tools.EtcdHelper
	http    *http.Client

	mu sync.Mutex
	// member is the server the next watch tries first: the one that last
	// answered.
	member int

	// learner and tail, from NewLearner, are the learner this source
	// reads and its tail.
	learner *learner
	tail    *tail
	closed  sync.Once
	// tailURL, from NewTailReader, is the tail of another process's
	// learner.
	tailURL string

	// listing, if set, runs in ListAndWatch between the start of the
	// watch and the list, to let tests write there.
	listing func()
}

// New returns a source reading the etcd cluster at servers (client URLs).
func New(servers []string) *Source {
	return &Source{
		servers: append([]string(nil), servers...),
		helper:  tools.EtcdHelper{Client: tools.NewEtcdClient(servers)},
		http:    &http.Client{},
	}
}

// ListPods reads every pod matching selector, with the etcd index of the
// read as the list's resourceVersion.
func (s *Source) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	list := &api.PodList{}
	if err := s.helper.ExtractList(Prefix, &list.Items, &list.ResourceVersion); err != nil {
		return nil, err
	}
	if selector.Empty() {
		return list, nil
	}
	kept := list.Items[:0]
	for _, p := range list.Items {
		if selector.Matches(labels.Set(p.Labels)) {
			kept = append(kept, p)
		}
	}
	list.Items = kept
	return list, nil
}

// WatchPods sends every change of a pod matching label after
// resourceVersion. The field selector must be empty.
func (s *Source) WatchPods(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	if !field.Empty() {
		return nil, fmt.Errorf("pods read from etcd cannot be selected by field (%v)", field)
	}
	w := &pollWatch{src: s, label: label, result: make(chan watch.Event), stop: make(chan struct{})}
	switch {
	case s.tail != nil:
		w.cancel = func() {}
		s.watchTail(w, resourceVersion)
		return w, nil
	case s.tailURL != "":
		s.watchTailURL(w, resourceVersion)
		return w, nil
	}
	ctx2, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go w.run(ctx2, resourceVersion)
	return w, nil
}

// pollWatch follows Prefix straight from etcd, by etcd's stream watch and
// by inFlight long polls at once (follow). A long poll asks for the first
// event at one index or after, as go-etcd's watch (and so the
// apiserver's) asks for each event in turn; etcd answers it at once from
// its window of 1000 events, or when the event comes. One poll at a time
// fell behind a scale-up of 100 000 pods: each waits its turn in the busy
// apiserver process that embeds etcd. When its member fails the watch asks
// the next one. An event that has left etcd's window ends it with a 410
// ERROR event, as the apiserver's watch ends; more than ten failed
// attempts a member with no event between them end it with a 500.
type pollWatch struct {
	src    *Source
	label  labels.Selector
	result chan watch.Event
	stop   chan struct{}
	once   sync.Once
	cancel context.CancelFunc
}

// inFlight is how many long polls a watch keeps open at once.
const inFlight = 32

func (w *pollWatch) ResultChan() <-chan watch.Event { return w.result }

func (w *pollWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.cancel()
	})
}

// send passes an event on unless the watch is stopped first.
func (w *pollWatch) send(e watch.Event) bool {
	select {
	case w.result <- e:
		return true
	case <-w.stop:
		return false
	}
}

func (w *pollWatch) run(ctx context.Context, last uint64) {
	defer close(w.result)
	failures := 0
	for ctx.Err() == nil {
		member := w.src.current()
		from := last
		var err error
		last, err = w.follow(ctx, member, last)
		if ctx.Err() != nil {
			return
		}
		if gone, ok := err.(*v2error.Error); ok && gone.ErrorCode == v2error.EcodeEventIndexCleared {
			status := errors.NewGone(fmt.Sprintf("resourceVersion %d is too old to watch from: %s (%s)", last, gone.Message, gone.Cause))
			w.send(watch.Event{Type: watch.Error, Object: statusOf(status)})
			return
		}
		if last > from {
			failures = 0
		}
		// The member is unreachable, or answered something else: the
		// next one.
		w.src.failed(member)
		failures++
		if failures > 10*len(w.src.servers) {
			w.send(watch.Event{Type: watch.Error, Object: statusOf(errors.NewInternalError(err))})
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Duration(failures) * 100 * time.Millisecond):
		}
	}
}

func statusOf(err error) *api.Status {
	if se, ok := err.(*errors.StatusError); ok {
		s := se.Status()
		return &s
	}
	return &api.Status{Status: api.StatusFailure, Message: err.Error()}
}

// polled is the answer to the long poll from index from.
type polled struct {
	from uint64
	e    *v2store.Event
	err  error
}

// follow reads member by its stream watch and by inFlight long polls at
// once, for the indexes after last, and sends their events in index order
// until a poll fails; it returns the index of the last event sent and the
// failure. Either way alone fell out of etcd's window: the stream when
// etcd dropped it (etcd 3.5 drops a stream watcher when an event finds
// 100 already waiting for its handler, which a burst of a scale-up's
// creates does at once, and leaves the stream open and silent), the polls
// when 64 clients created pods flat out and each new poll waited its turn
// in the busy apiserver process that embeds etcd.
// The stream brings a burst that polls cannot keep up with, the polls,
// sent only while the stream has been silent for a moment, the events a
// dropped stream lost; a stream that has brought nothing for a second
// while the polls went past it is opened again.
func (w *pollWatch) follow(ctx context.Context, member string, last uint64) (uint64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan polled, inFlight)
	issued := last
	issue := func() {
		if issued < last {
			issued = last
		}
		for ; issued < last+inFlight; issued++ {
			go func(from uint64) {
				e, err := w.poll(ctx, member, from)
				select {
				case answers <- polled{from, e, err}:
				case <-ctx.Done():
				}
			}(issued + 1)
		}
	}
	// first holds, by index, the first event at that index or after.
	first := map[uint64]*v2store.Event{}
	stream, closeStream := w.openStream(ctx, member)
	defer func() { closeStream() }()
	// opened is the index the stream opened at, brought the last index it
	// brought (0: none yet).
	var opened, brought uint64
	var buffered []*v2store.Event
	heard := time.Now()
	tick := time.NewTicker(quiet)
	defer tick.Stop()
	// advance sends every event now known to be the next one.
	advance := func() bool {
		for {
			if e, ok := first[last+1]; ok {
				// The polls from last+1 to e's index all answer e.
				for i := last + 1; i <= e.Node.ModifiedIndex; i++ {
					delete(first, i)
				}
				if !w.deliver(e) {
					return false
				}
				last = e.Node.ModifiedIndex
				continue
			}
			for len(buffered) > 0 && buffered[0].Node.ModifiedIndex <= last {
				buffered = buffered[1:]
			}
			// The stream brings every event after the index it opened
			// at, in order: past that index, its next is the next one.
			if opened == 0 || opened > last || len(buffered) == 0 {
				return true
			}
			e := buffered[0]
			buffered = buffered[1:]
			if !w.deliver(e) {
				return false
			}
			last = e.Node.ModifiedIndex
		}
	}
	for {
		// Polls only while the stream is silent: while it brings events
		// they would only double etcd's work.
		if stream == nil || time.Since(heard) >= quiet {
			issue()
		}
		select {
		case a := <-answers:
			if a.from <= last {
				continue
			}
			if a.err != nil {
				return last, a.err
			}
			first[a.from] = a.e
		case m, ok := <-stream:
			if !ok {
				// Ended: its buffered events wait for the polls.
				stream, opened, brought, buffered = nil, 0, 0, nil
				continue
			}
			heard = time.Now()
			if m.opened != 0 {
				opened, brought = m.opened, m.opened
				continue
			}
			if m.e.Node == nil {
				continue
			}
			brought = m.e.Node.ModifiedIndex
			if brought > last {
				buffered = append(buffered, m.e)
			}
		case <-tick.C:
			// Gone, or silent for a second while the polls went past
			// it: open it again.
			if stream == nil || (time.Since(heard) > time.Second && brought < last) {
				closeStream()
				stream, closeStream = w.openStream(ctx, member)
				opened, brought, buffered, heard = 0, 0, nil, time.Now()
			}
			continue
		case <-ctx.Done():
			return last, ctx.Err()
		}
		if !advance() {
			return last, ctx.Err()
		}
	}
}

// quiet is how long a stream may be silent before long polls ask etcd
// whether it has missed something.
const quiet = 100 * time.Millisecond

// streamed is what a stream watch brings: the index it opened at, first,
// then its events.
type streamed struct {
	opened uint64
	e      *v2store.Event
}

// openStream opens a stream watch on member and reads it in a goroutine
// of its own, as fast as it comes; the channel closes when the stream
// ends, ctx does, or the returned function is called.
func (w *pollWatch) openStream(ctx context.Context, member string) (<-chan streamed, func()) {
	ctx, cancel := context.WithCancel(ctx)
	out := make(chan streamed, streamBuffer)
	go func() {
		defer close(out)
		resp, err := w.src.get(ctx, member, "wait=true&recursive=true&stream=true")
		if err != nil {
			return
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return
		}
		opened, _ := strconv.ParseUint(resp.Header.Get("X-Etcd-Index"), 10, 64)
		if opened == 0 {
			return
		}
		out <- streamed{opened: opened}
		d := json.NewDecoder(resp.Body)
		for {
			e := new(v2store.Event)
			if d.Decode(e) != nil {
				return
			}
			select {
			case out <- streamed{e: e}:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, cancel
}

// streamBuffer is how many of a stream's events its reader holds.
const streamBuffer = 10000

// poll asks member for the first event at index from or later, which
// etcd answers at once from its window.
func (w *pollWatch) poll(ctx context.Context, member string, from uint64) (*v2store.Event, error) {
	resp, err := w.src.get(ctx, member, "wait=true&recursive=true&waitIndex="+strconv.FormatUint(from, 10))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, readError(resp)
	}
	var e v2store.Event
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
		return nil, err
	}
	if e.Node == nil {
		return nil, fmt.Errorf("etcd sent an event without a node")
	}
	return &e, nil
}

// deliver sends the watch event an etcd event stands for, if it is a pod
// matching the label selector; it reports false once the watch stopped.
func (w *pollWatch) deliver(e *v2store.Event) bool {
	if e.Node.Dir {
		return true
	}
	typ, value := watch.Modified, e.Node.Value
	switch e.Action {
	case v2store.Delete, v2store.Expire, v2store.CompareAndDelete:
		if e.PrevNode == nil {
			return true
		}
		typ, value = watch.Deleted, e.PrevNode.Value
	case v2store.Create:
		typ = watch.Added
	default:
		if e.PrevNode == nil {
			typ = watch.Added
		}
	}
	if value == nil {
		return true
	}
	obj, err := api.Decode([]byte(*value))
	if err != nil {
		return true
	}
	pod, ok := obj.(*api.Pod)
	if !ok || !w.label.Matches(labels.Set(pod.Labels)) {
		return true
	}
	pod.ResourceVersion = e.Node.ModifiedIndex
	return w.send(watch.Event{Type: typ, Object: pod})
}

// readError decodes etcd's error answer.
func readError(resp *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	var e v2error.Error
	if json.Unmarshal(body, &e) == nil && e.ErrorCode != 0 {
		return &e
	}
	return fmt.Errorf("etcd answered %s: %s", resp.Status, body)
}

// get sends a GET of Prefix with query to member.
func (s *Source) get(ctx context.Context, member, query string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, member+"/v2/keys"+Prefix+"?"+query, nil)
	if err != nil {
		return nil, err
	}
	return s.http.Do(req)
}

func (s *Source) current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.servers[s.member%len(s.servers)]
}

// failed moves the next watch to the member after failed.
func (s *Source) failed(member string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.servers[s.member%len(s.servers)] == member {
		s.member++
	}
}

// Pods lists and watches pods: the apiserver's client, or a Source.
type Pods interface {
	ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error)
	WatchPods(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
}

// ListAndWatch lists the pods of src matching selector and watches the
// changes after the list: a Source starts its watch before its list
// (Source.ListAndWatch); any other, such as the apiserver's client, lists
// and then watches from the list's version, as the apiserver's clients do.
func ListAndWatch(ctx api.Context, src Pods, selector labels.Selector) (*api.PodList, watch.Interface, error) {
	if s, ok := src.(*Source); ok {
		return s.ListAndWatch(ctx, selector)
	}
	list, err := src.ListPods(ctx, selector)
	if err != nil {
		return nil, nil, err
	}
	w, err := src.WatchPods(ctx, selector, labels.Everything(), list.ResourceVersion)
	if err != nil {
		return nil, nil, err
	}
	return list, w, nil
}

// ListAndWatch lists every pod matching selector and returns the list
// with a watch of every later change, started before the list: its long
// polls are open at etcd's index of the moment before the list is read,
// and what they bring meanwhile waits in the watch. However long the list
// takes, the watch cannot have fallen out of etcd's window by then; the
// apiserver's order, a list and then a watch from its version, falls out
// again whenever listing every pod takes longer than 1000 writes, and
// after its first fall in a storm of writes it lists for ever.
func (s *Source) ListAndWatch(ctx api.Context, selector labels.Selector) (*api.PodList, watch.Interface, error) {
	now, err := s.Index()
	if err != nil {
		return nil, nil, err
	}
	inner, err := s.WatchPods(ctx, selector, labels.Everything(), now)
	if err != nil {
		return nil, nil, err
	}
	b := &bufferedWatch{inner: inner, result: make(chan watch.Event), stop: make(chan struct{}), listed: make(chan uint64, 1)}
	go b.run()
	if s.listing != nil {
		s.listing()
	}
	list, err := s.ListPods(ctx, selector)
	if err != nil {
		b.Stop()
		return nil, nil, err
	}
	b.listed <- list.ResourceVersion
	return list, b, nil
}

// Index returns etcd's current index, from the answer to a read of a key
// that does not exist (a learner's, or a reader of the log's, is its
// store's).
func (s *Source) Index() (uint64, error) {
	var lastErr error
	for range s.servers {
		member := s.current()
		resp, err := s.http.Get(member + "/v2/keys/kube-rewind-index-probe")
		if err != nil {
			s.failed(member)
			lastErr = err
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if n, err := strconv.ParseUint(resp.Header.Get("X-Etcd-Index"), 10, 64); err == nil {
			return n, nil
		}
		lastErr = fmt.Errorf("etcd at %s answered %s without an index", member, resp.Status)
		s.failed(member)
	}
	return 0, lastErr
}

// bufferedWatch holds every event of inner as it comes, without limit,
// and passes on those after the list's version once it is known.
type bufferedWatch struct {
	inner  watch.Interface
	result chan watch.Event
	stop   chan struct{}
	once   sync.Once
	listed chan uint64
}

func (b *bufferedWatch) ResultChan() <-chan watch.Event { return b.result }

func (b *bufferedWatch) Stop() {
	b.once.Do(func() {
		close(b.stop)
		b.inner.Stop()
	})
}

func (b *bufferedWatch) run() {
	defer close(b.result)
	in := b.inner.ResultChan()
	var queue []watch.Event
	var after uint64
	listed := b.listed
	for {
		var out chan watch.Event
		var next watch.Event
		if listed == nil && len(queue) > 0 {
			out, next = b.result, queue[0]
		}
		if in == nil && out == nil && listed == nil {
			return
		}
		select {
		case v := <-listed:
			after, listed = v, nil
			kept := queue[:0]
			for _, e := range queue {
				if e.Type == watch.Error || version(e) > after {
					kept = append(kept, e)
				}
			}
			queue = kept
		case e, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			if listed != nil || e.Type == watch.Error || version(e) > after {
				queue = append(queue, e)
			}
		case out <- next:
			queue = queue[1:]
		case <-b.stop:
			return
		}
	}
}

func version(e watch.Event) uint64 {
	if pod, ok := e.Object.(*api.Pod); ok {
		return pod.ResourceVersion
	}
	return 0
}
