package etcdpods

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Prefix is where the apiserver keeps pods: the 2014 key layout of
// pkg/registry/etcd, /registry/pods/<id>.
const Prefix = "/registry/pods"

// Source lists and watches the pods the apiserver stores, in etcd.
type Source struct {
	servers []string
	helper  tools.EtcdHelper
	http    *http.Client

	// checkEvery and stallAfter time the stall detection (tests shorten
	// them).
	checkEvery, stallAfter time.Duration

	mu sync.Mutex
	// member is the server the next watch tries first: the one that last
	// answered.
	member int
}

// New returns a source reading the etcd cluster at servers (client URLs).
func New(servers []string) *Source {
	return &Source{
		servers: append([]string(nil), servers...),
		helper:  tools.EtcdHelper{Client: tools.NewEtcdClient(servers)},
		http:    &http.Client{},

		checkEvery: checkEvery,
		stallAfter: stallAfter,
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
	w := &streamWatch{src: s, label: label, result: make(chan watch.Event), stop: make(chan struct{})}
	ctx2, cancel := context.WithCancel(context.Background())
	w.cancel = cancel
	go w.run(ctx2, resourceVersion)
	return w, nil
}

// etcdEvent is one event of etcd's v2 watch.
type etcdEvent struct {
	Action   string    `json:"action"`
	Node     *etcdNode `json:"node"`
	PrevNode *etcdNode `json:"prevNode"`
}

type etcdNode struct {
	Key           string `json:"key"`
	Value         string `json:"value"`
	Dir           bool   `json:"dir"`
	ModifiedIndex uint64 `json:"modifiedIndex"`
	CreatedIndex  uint64 `json:"createdIndex"`
}

// etcdError is etcd's v2 error answer.
type etcdError struct {
	ErrorCode int    `json:"errorCode"`
	Message   string `json:"message"`
	Cause     string `json:"cause"`
	Index     uint64 `json:"index"`
}

// eventIndexCleared is etcd's error for an index older than its window.
const eventIndexCleared = 401

// streamWatch follows one recursive stream watch of Prefix. etcd v2 sends
// a stream watch every event after the index it was registered at, but
// one started from an older index gets that index's event and nothing
// more; so the watch is opened from now, and the gap from the version
// asked for to the index it opened at is read first, one long poll per
// event. When the stream ends (etcd drops a reader more than 100 events
// behind, a member dies) it is opened again the same way, on the next
// member if this one is gone. Only a gap that has left etcd's window of
// 1000 events ends the watch, with a 410 ERROR event, as the apiserver's
// watch ends.
type streamWatch struct {
	src    *Source
	label  labels.Selector
	result chan watch.Event
	stop   chan struct{}
	once   sync.Once
	cancel context.CancelFunc
}

func (w *streamWatch) ResultChan() <-chan watch.Event { return w.result }

func (w *streamWatch) Stop() {
	w.once.Do(func() {
		close(w.stop)
		w.cancel()
	})
}

// send passes an event on unless the watch is stopped first.
func (w *streamWatch) send(e watch.Event) bool {
	select {
	case w.result <- e:
		return true
	case <-w.stop:
		return false
	}
}

func (w *streamWatch) run(ctx context.Context, last uint64) {
	defer close(w.result)
	failures := 0
	for ctx.Err() == nil {
		member := w.src.current()
		var err error
		last, err = w.follow(ctx, member, last)
		if ctx.Err() != nil {
			return
		}
		if gone, ok := err.(*etcdError); ok && gone.ErrorCode == eventIndexCleared {
			status := errors.NewGone(fmt.Sprintf("resourceVersion %d is too old to watch from: %s (%s)", last, gone.Message, gone.Cause))
			w.send(watch.Event{Type: watch.Error, Object: statusOf(status)})
			return
		}
		if err == nil {
			failures = 0
			continue
		}
		// The member is unreachable or the stream broke: the next one.
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

// follow opens a stream on member, sends the events from last+1 on, and
// returns the index of the last one sent when the stream ends. A nil
// error means the stream ended, or stalled, and can be opened again.
//
// A goroutine reads the stream as fast as it comes, so that etcd never
// holds 100 events for it. Still, etcd (3.5) drops a stream watcher whose
// 100 events its own handler has not yet written, and then leaves the
// stream open with nothing more to send; so another goroutine asks etcd,
// by long poll, for the first event after the last one sent, and a stream
// that has not brought that event a second after etcd had it is taken for
// stalled and opened again.
func (w *streamWatch) follow(ctx context.Context, member string, last uint64) (uint64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	resp, err := w.src.get(ctx, member, "wait=true&recursive=true&stream=true")
	if err != nil {
		return last, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return last, readError(resp)
	}
	opened, _ := strconv.ParseUint(resp.Header.Get("X-Etcd-Index"), 10, 64)
	stream := make(chan *etcdEvent, streamBuffer)
	var streamErr error
	go func() {
		defer close(stream)
		d := json.NewDecoder(resp.Body)
		for {
			e := new(etcdEvent)
			if err := d.Decode(e); err != nil {
				if err != io.EOF {
					streamErr = err
				}
				return
			}
			select {
			case stream <- e:
			case <-ctx.Done():
				return
			}
		}
	}()
	// The gap between the version asked for and the stream's start.
	for last < opened {
		e, err := w.poll(ctx, member, last+1)
		if err != nil {
			return last, err
		}
		if e.Node.ModifiedIndex > opened {
			// Nothing left in the gap; this event comes on the stream.
			break
		}
		if !w.deliver(e) {
			return last, ctx.Err()
		}
		last = e.Node.ModifiedIndex
	}
	if opened > last {
		last = opened
	}
	var sent atomic.Uint64
	sent.Store(last)
	stalled := make(chan struct{})
	go w.check(ctx, member, &sent, stalled)
	for {
		select {
		case e, ok := <-stream:
			if !ok {
				return last, streamErr
			}
			if e.Node == nil || e.Node.ModifiedIndex <= last {
				continue
			}
			if !w.deliver(e) {
				return last, ctx.Err()
			}
			last = e.Node.ModifiedIndex
			sent.Store(last)
		case <-stalled:
			return last, nil
		case <-ctx.Done():
			return last, ctx.Err()
		}
	}
}

// streamBuffer is how many events the stream's reader holds for the watch.
const streamBuffer = 10000

// Stall detection, unless a Source says otherwise: how often the stream is
// checked, and how long after etcd had an event the stream may take to
// bring it.
const (
	checkEvery = 250 * time.Millisecond
	stallAfter = time.Second
)

// check closes stalled when etcd has an event after the last one sent that
// the stream has not brought within stallAfter.
func (w *streamWatch) check(ctx context.Context, member string, sent *atomic.Uint64, stalled chan<- struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(w.src.checkEvery):
		}
		e, err := w.poll(ctx, member, sent.Load()+1)
		if err != nil {
			// The stream's own read ends the same way, or the gap has
			// left etcd's window and the next opening says so.
			return
		}
		deadline := time.Now().Add(w.src.stallAfter)
		for sent.Load() < e.Node.ModifiedIndex {
			if time.Now().After(deadline) {
				close(stalled)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
}

// poll asks member for the first event at index from or later, which
// etcd answers at once from its window.
func (w *streamWatch) poll(ctx context.Context, member string, from uint64) (*etcdEvent, error) {
	resp, err := w.src.get(ctx, member, "wait=true&recursive=true&waitIndex="+strconv.FormatUint(from, 10))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, readError(resp)
	}
	var e etcdEvent
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
func (w *streamWatch) deliver(e *etcdEvent) bool {
	if e.Node.Dir {
		return true
	}
	typ, value := watch.Modified, e.Node.Value
	switch e.Action {
	case "delete", "expire", "compareAndDelete":
		if e.PrevNode == nil {
			return true
		}
		typ, value = watch.Deleted, e.PrevNode.Value
	case "create":
		typ = watch.Added
	default:
		if e.PrevNode == nil {
			typ = watch.Added
		}
	}
	obj, err := api.Decode([]byte(value))
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
	var e etcdError
	if json.Unmarshal(body, &e) == nil && e.ErrorCode != 0 {
		return &e
	}
	return fmt.Errorf("etcd answered %s: %s", resp.Status, body)
}

func (e *etcdError) Error() string {
	return fmt.Sprintf("etcd error %d: %s (%s), index %d", e.ErrorCode, e.Message, e.Cause, e.Index)
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
