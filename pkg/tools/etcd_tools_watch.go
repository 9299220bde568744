package tools

// Follows kubernetes/kubernetes pkg/tools/etcd_tools_watch.go as of v0.4
// (October 2014): etcd's watch responses are decoded into API objects and
// translated into ADDED, MODIFIED and DELETED events, and a watch from
// resourceVersion 0 first replays what exists.

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/coreos/go-etcd/etcd"
	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// FilterFunc reports whether an object belongs to a watch.
type FilterFunc func(obj api.Object) bool

// Everything is the FilterFunc that keeps every object.
func Everything(api.Object) bool {
	return true
}

// WatchList watches every object under key. With resourceVersion 0 it first
// sends each existing object as ADDED (MODIFIED if it was ever changed) and
// then every later change; otherwise it sends the changes strictly after
// resourceVersion. Only objects passing filter are sent; an object that
// starts or stops passing arrives as ADDED or DELETED.
func (h *EtcdHelper) WatchList(key string, resourceVersion uint64, filter FilterFunc) (watch.Interface, error) {
	if filter == nil {
		filter = Everything
	}
	w := newEtcdWatcher(true, filter, resourceVersion)
	go w.etcdWatch(h.Client, key)
	return w, nil
}

// Watch watches the single object at key, with the same resourceVersion
// rules as WatchList.
func (h *EtcdHelper) Watch(key string, resourceVersion uint64) (watch.Interface, error) {
	w := newEtcdWatcher(false, Everything, resourceVersion)
	go w.etcdWatch(h.Client, key)
	return w, nil
}

// etcdWatcher turns one go-etcd watch into a watch.Interface. Two goroutines
// serve it: etcdWatch runs go-etcd's blocking Watch, which sends each
// response on etcdIncoming; translate decodes them and sends events on
// outgoing.
type etcdWatcher struct {
	list   bool
	filter FilterFunc

	etcdIncoming chan *etcd.Response
	etcdError    chan error
	etcdStop     chan bool
	outgoing     chan watch.Event
	userStop     chan struct{}
	stopOnce     sync.Once

	// fromVersion is the resourceVersion the caller asked to start after.
	fromVersion uint64
	// lastIndex is the etcd index of the last response translated; only
	// translate touches it.
	lastIndex uint64
}

func newEtcdWatcher(list bool, filter FilterFunc, resourceVersion uint64) *etcdWatcher {
	w := &etcdWatcher{
		list:         list,
		filter:       filter,
		fromVersion:  resourceVersion,
		etcdIncoming: make(chan *etcd.Response),
		etcdError:    make(chan error, 1),
		etcdStop:     make(chan bool),
		outgoing:     make(chan watch.Event),
		userStop:     make(chan struct{}),
	}
	go w.translate()
	return w
}

// etcdWatch runs the etcd side of the watch until it fails or is stopped.
// It always closes etcdIncoming and then etcdError, after putting any
// failure there.
func (w *etcdWatcher) etcdWatch(client EtcdClient, key string) {
	defer util.HandleCrash()
	defer close(w.etcdError)
	defer close(w.etcdIncoming)
	waitIndex := w.fromVersion + 1
	if w.fromVersion == 0 {
		latest, err := w.sendInitialState(client, key)
		if err != nil {
			if err != errWatchStopped {
				w.etcdError <- err
			}
			return
		}
		waitIndex = latest + 1
	}
	// Ours: v0.4 handed the whole watch to go-etcd, whose loop ends at the
	// first failed request, so an etcd member that died mid-watch ended
	// every client's watch with an error and sent them all to relist at
	// once. Here a failure that is not etcd's own answer (a connection cut,
	// an empty body, no member reachable) is retried from the same index
	// with a short backoff; go-etcd moves on to another member, and the
	// clients never notice. etcd's own errors, and above all 401 (the index
	// has left its window of 1000 events), still end the watch.
	for failures := 0; ; {
		if w.isStopped() {
			return
		}
		attempt := make(chan *etcd.Response)
		done := make(chan error, 1)
		go func(from uint64) {
			_, err := client.Watch(key, from, w.list, attempt, w.etcdStop)
			done <- err
		}(waitIndex)
		for res := range attempt {
			if res.Node != nil && res.Node.ModifiedIndex >= waitIndex {
				waitIndex = res.Node.ModifiedIndex + 1
			}
			failures = 0
			w.etcdIncoming <- res
		}
		err := <-done
		if err == nil || IsEtcdWatchStoppedByUser(err) {
			return
		}
		if !isTransientWatchError(err) || failures >= WatchRetries {
			w.etcdError <- err
			return
		}
		backoff := WatchRetryBackoff << uint(failures)
		if backoff > 2*time.Second {
			backoff = 2 * time.Second
		}
		failures++
		glog.V(2).Infof("etcd watch of %s failed (%v); retrying from index %d in %v", key, err, waitIndex, backoff)
		select {
		case <-w.etcdStop:
			return
		case <-time.After(backoff):
		}
	}
}

// WatchRetries is how many failed etcd requests in a row a watch retries
// before it gives up; WatchRetryBackoff is the first wait, doubled after
// each failure up to 2 s. Tests shorten them.
var (
	WatchRetries      = 8
	WatchRetryBackoff = 100 * time.Millisecond
)

// isTransientWatchError reports whether a failed watch request is worth
// repeating: anything but an error etcd itself answered with (a code below
// 500; go-etcd's own codes, such as "no member reachable", are 500 and up).
func isTransientWatchError(err error) bool {
	var etcdErr *etcd.EtcdError
	if errors.As(err, &etcdErr) {
		return etcdErr.ErrorCode >= 500
	}
	return true
}

// errWatchStopped ends the initial listing when the user stops first.
var errWatchStopped = fmt.Errorf("watch stopped")

// sendInitialState reads what exists under key and passes each object on as
// if etcd had reported it with action "get"; it returns the etcd index the
// read was taken at, from which the watch goes on.
//
// Ours: the objects go out in ModifiedIndex order rather than in the order
// etcd lists them (none in particular), so that resourceVersions rise
// through the whole stream and a client cut off during the replay can
// resume from the last one it saw without missing or repeating a change.
func (w *etcdWatcher) sendInitialState(client EtcdClient, key string) (uint64, error) {
	resp, err := client.Get(key, false, w.list)
	if err != nil {
		if !IsEtcdNotFound(err) {
			glog.Errorf("watch was unable to read the current state of %q: %v", key, err)
			return 0, err
		}
		index, _ := etcdErrorIndex(err)
		return index, nil
	}
	var nodes []*etcd.Node
	collectValueNodes(resp.Node, &nodes)
	sortNodesByIndex(nodes)
	for _, node := range nodes {
		copied := *resp
		copied.Action = "get"
		copied.Node = node
		copied.PrevNode = nil
		select {
		case w.etcdIncoming <- &copied:
		case <-w.userStop:
			return 0, errWatchStopped
		}
	}
	return resp.EtcdIndex, nil
}

// sortNodesByIndex orders nodes by ModifiedIndex, oldest first.
func sortNodesByIndex(nodes []*etcd.Node) {
	sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].ModifiedIndex < nodes[j].ModifiedIndex })
}

// collectValueNodes appends every non-directory node under node.
func collectValueNodes(node *etcd.Node, out *[]*etcd.Node) {
	if node == nil {
		return
	}
	if !node.Dir {
		*out = append(*out, node)
		return
	}
	for _, child := range node.Nodes {
		collectValueNodes(child, out)
	}
}

// translate turns etcd responses into events until the etcd side ends or
// the user stops the watch, then closes outgoing.
func (w *etcdWatcher) translate() {
	defer close(w.outgoing)
	defer util.HandleCrash()
	for {
		select {
		case <-w.userStop:
			w.stopEtcd()
			return
		case res, ok := <-w.etcdIncoming:
			if !ok {
				if err := <-w.etcdError; err != nil && !w.isStopped() {
					w.emit(w.errorEvent(err))
				}
				return
			}
			if !w.sendResult(res) {
				w.stopEtcd()
				return
			}
		}
	}
}

// stopEtcd ends go-etcd's Watch. go-etcd reads the stop channel only while
// a request is in flight; between requests it blocks sending the previous
// response to etcdIncoming.
//
// Ours: v0.4 sent one value on stop, which nobody received while go-etcd
// was blocked sending, so each watch stopped at that moment left its
// goroutines and connection behind for good. Closing stop reaches every
// request go-etcd will still make, and draining etcdIncoming until
// etcdWatch closes it releases a blocked send.
func (w *etcdWatcher) stopEtcd() {
	close(w.etcdStop)
	for range w.etcdIncoming {
	}
	<-w.etcdError
}

func (w *etcdWatcher) isStopped() bool {
	select {
	case <-w.userStop:
		return true
	default:
		return false
	}
}

// emit sends event unless the user stops the watch first; it reports
// whether the event was sent.
func (w *etcdWatcher) emit(event watch.Event) bool {
	select {
	case w.outgoing <- event:
		return true
	case <-w.userStop:
		return false
	}
}

// decodeObject decodes a stored value and gives it resourceVersion index.
func decodeObject(data string, index uint64) (api.Object, error) {
	obj, err := api.Decode([]byte(data))
	if err != nil {
		return nil, err
	}
	obj.GetTypeMeta().ResourceVersion = index
	return obj, nil
}

// sendResult translates one etcd response; it returns false when the user
// stopped the watch while an event was waiting to be taken.
func (w *etcdWatcher) sendResult(res *etcd.Response) bool {
	if res.Node == nil {
		glog.Errorf("watch: etcd response without a node: %#v", res)
		return true
	}
	// Ours: an event that is not after the last one is dropped, so that
	// events come strictly in resourceVersion order and at most once even
	// if etcd or go-etcd repeats one. It never happened in the tests.
	index := res.Node.ModifiedIndex
	if index != 0 && index <= w.lastIndex {
		glog.Errorf("watch: dropping etcd event %q at index %d, not after %d", res.Action, index, w.lastIndex)
		return true
	}
	w.lastIndex = index
	// Ours: "update", "compareAndDelete" and "expire" are etcd actions v0.4
	// logged as unknown; they are translated like their kin.
	switch res.Action {
	case "create", "get":
		return w.sendAdd(res)
	case "set", "compareAndSwap", "update":
		return w.sendModify(res)
	case "delete", "compareAndDelete", "expire":
		return w.sendDelete(res)
	default:
		glog.Errorf("watch: unknown etcd action %q", res.Action)
		return true
	}
}

func (w *etcdWatcher) sendAdd(res *etcd.Response) bool {
	if res.Node.Dir {
		return true
	}
	obj, err := decodeObject(res.Node.Value, res.Node.ModifiedIndex)
	if err != nil {
		// Skipping keeps the watch alive: a client resuming from a later
		// resourceVersion could never get past a value that stops it.
		glog.Errorf("watch: cannot decode %s at index %d, skipped: %v", res.Node.Key, res.Node.ModifiedIndex, err)
		return true
	}
	if !w.filter(obj) {
		return true
	}
	action := watch.Added
	if res.Node.ModifiedIndex != res.Node.CreatedIndex {
		action = watch.Modified
	}
	return w.emit(watch.Event{Type: action, Object: obj})
}

func (w *etcdWatcher) sendModify(res *etcd.Response) bool {
	if res.Node.Dir {
		return true
	}
	curObj, err := decodeObject(res.Node.Value, res.Node.ModifiedIndex)
	if err != nil {
		glog.Errorf("watch: cannot decode %s at index %d, skipped: %v", res.Node.Key, res.Node.ModifiedIndex, err)
		return true
	}
	curPasses := w.filter(curObj)
	var oldObj api.Object
	oldPasses := false
	if res.PrevNode != nil && res.PrevNode.Value != "" {
		// A previous value that cannot be read counts as not passing.
		if oldObj, err = decodeObject(res.PrevNode.Value, res.PrevNode.ModifiedIndex); err == nil {
			oldPasses = w.filter(oldObj)
		}
	}
	// A change can move an object into or out of the filter; watchers see
	// that as an add or a delete.
	//
	// Ours: such a DELETED carries the index of the change, where v0.4 left
	// the old object's own index. Otherwise its resourceVersion would be
	// lower than the events before it, and a client resuming from it would
	// see the change again.
	switch {
	case curPasses && oldPasses:
		return w.emit(watch.Event{Type: watch.Modified, Object: curObj})
	case curPasses:
		return w.emit(watch.Event{Type: watch.Added, Object: curObj})
	case oldPasses:
		oldObj.GetTypeMeta().ResourceVersion = res.Node.ModifiedIndex
		return w.emit(watch.Event{Type: watch.Deleted, Object: oldObj})
	}
	return true
}

func (w *etcdWatcher) sendDelete(res *etcd.Response) bool {
	if res.PrevNode == nil || res.PrevNode.Dir {
		glog.Errorf("watch: %s of %s carries no previous value, skipped", res.Action, res.Node.Key)
		return true
	}
	// The event carries the object as it was, versioned with the index of
	// the deletion, so a client resuming from it starts after the delete.
	obj, err := decodeObject(res.PrevNode.Value, res.Node.ModifiedIndex)
	if err != nil {
		glog.Errorf("watch: cannot decode the last value of %s, skipped: %v", res.Node.Key, err)
		return true
	}
	if !w.filter(obj) {
		return true
	}
	return w.emit(watch.Event{Type: watch.Deleted, Object: obj})
}

// ResultChan returns the event channel; it is closed when the watch ends.
func (w *etcdWatcher) ResultChan() <-chan watch.Event {
	return w.outgoing
}

// Stop ends the watch and releases its goroutines and connection.
func (w *etcdWatcher) Stop() {
	w.stopOnce.Do(func() { close(w.userStop) })
}
