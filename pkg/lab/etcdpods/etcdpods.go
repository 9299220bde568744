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

// pollWatch follows Prefix with one long poll per event, as go-etcd's
// watch (and the apiserver's) does, but straight to etcd: each asks for
// the first event after the last one sent, which etcd answers at once
// from its window of 1000 events or when it comes. (etcd's stream watch
// sends events without a request each, but etcd 3.5 drops a stream
// watcher as soon as 100 events wait for its handler, which a burst of
// creates does at once, and leaves the stream open and silent.) When its
// member fails it asks the next one. Only an event that has left etcd's
// window ends the watch, with a 410 ERROR event, as the apiserver's watch
// ends.
type pollWatch struct {
	src    *Source
	label  labels.Selector
	result chan watch.Event
	stop   chan struct{}
	once   sync.Once
	cancel context.CancelFunc
}

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
		e, err := w.poll(ctx, member, last+1)
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
			if !w.deliver(e) {
				return
			}
			last = e.Node.ModifiedIndex
			continue
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

// poll asks member for the first event at index from or later, which
// etcd answers at once from its window.
func (w *pollWatch) poll(ctx context.Context, member string, from uint64) (*etcdEvent, error) {
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
func (w *pollWatch) deliver(e *etcdEvent) bool {
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
