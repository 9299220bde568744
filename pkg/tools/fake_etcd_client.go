package tools

// Follows kubernetes/kubernetes pkg/tools/fake_etcd_client.go as of v0.4
// (October 2014): an in-memory stand-in for go-etcd whose Data map holds
// canned responses, which records what was asked of it, and whose watch
// the test feeds by hand.

import (
	"errors"
	"sync"

	"github.com/coreos/go-etcd/etcd"
)

// EtcdResponseWithError is a canned answer for one key.
type EtcdResponseWithError struct {
	R *etcd.Response
	E error
	// N, when set, replaces this answer after it has been used once.
	N *EtcdResponseWithError
}

// TestLogger is the part of *testing.T the fake writes to.
type TestLogger interface {
	Errorf(format string, args ...interface{})
	Logf(format string, args ...interface{})
}

// FakeEtcdAction is one recorded call.
type FakeEtcdAction struct {
	Action string
	Key    string
	// Index is the prevIndex of a compare-and-swap or the waitIndex of a
	// watch.
	Index uint64
	// Recursive is the flag of a get, delete or watch.
	Recursive bool
}

// FakeEtcdClient implements EtcdClient in memory for unit tests.
type FakeEtcdClient struct {
	sync.Mutex
	// Data maps a key to the answer a Get of it returns; writes keep it up
	// to date. A directory is a node with Dir set and Nodes filled in.
	Data map[string]EtcdResponseWithError
	// DeletedKeys lists every key deleted, in order.
	DeletedKeys []string
	// Actions lists every call, in order.
	Actions []FakeEtcdAction
	// Err, when set, is returned by every write.
	Err error
	// TestIndex makes each write take the next index from ChangeIndex;
	// otherwise every index is 0.
	TestIndex   bool
	ChangeIndex uint64

	t                    TestLogger
	expectNotFoundGetSet map[string]struct{}
	watchStarted         chan struct{}

	// The fields below are set by Watch; read them after
	// WaitForWatchCompletion. The test sends etcd responses on
	// WatchResponse, ends the watch with an error on WatchInjectError, and
	// may check WatchIndex for the waitIndex asked for.
	WatchResponse    chan *etcd.Response
	WatchIndex       uint64
	WatchInjectError chan<- error
	WatchStop        chan bool
	// WatchImmediateError, when set, is returned by Watch at once.
	WatchImmediateError error
}

// NewFakeEtcdClient returns an empty fake that logs to t.
func NewFakeEtcdClient(t TestLogger) *FakeEtcdClient {
	return &FakeEtcdClient{
		t:                    t,
		Data:                 map[string]EtcdResponseWithError{},
		expectNotFoundGetSet: map[string]struct{}{},
		watchStarted:         make(chan struct{}, 16),
	}
}

// ExpectNotFoundGet declares that a Get of key for a missing value is part
// of the test; any other Get of a missing key is reported as an error.
func (f *FakeEtcdClient) ExpectNotFoundGet(key string) {
	f.Lock()
	defer f.Unlock()
	f.expectNotFoundGetSet[key] = struct{}{}
}

func (f *FakeEtcdClient) record(action, key string, index uint64, recursive bool) {
	f.Actions = append(f.Actions, FakeEtcdAction{Action: action, Key: key, Index: index, Recursive: recursive})
}

func (f *FakeEtcdClient) generateIndex() uint64 {
	if !f.TestIndex {
		return 0
	}
	f.ChangeIndex++
	return f.ChangeIndex
}

// updateResponse moves key on to its next canned answer, if it has one.
func (f *FakeEtcdClient) updateResponse(key string) {
	resp, found := f.Data[key]
	if found && resp.N != nil {
		f.Data[key] = *resp.N
	}
}

func (f *FakeEtcdClient) notFound() error {
	return &etcd.EtcdError{ErrorCode: EtcdErrorCodeNotFound, Message: "Key not found", Index: f.ChangeIndex}
}

// Get returns the canned answer for key, or etcd's "not found".
func (f *FakeEtcdClient) Get(key string, sort, recursive bool) (*etcd.Response, error) {
	f.Lock()
	defer f.Unlock()
	f.record("get", key, 0, recursive)
	defer f.updateResponse(key)
	result := f.Data[key]
	if result.R == nil && result.E == nil {
		if _, ok := f.expectNotFoundGetSet[key]; !ok && f.t != nil {
			f.t.Errorf("unexpected get of missing key %s", key)
		}
		return &etcd.Response{}, f.notFound()
	}
	return result.R, result.E
}

func (f *FakeEtcdClient) nodeExists(key string) bool {
	result, ok := f.Data[key]
	return ok && result.R != nil && result.R.Node != nil && result.E == nil
}

func (f *FakeEtcdClient) setLocked(action, key, value string, ttl uint64) (*etcd.Response, error) {
	if f.Err != nil {
		return nil, f.Err
	}
	i := f.generateIndex()
	node := &etcd.Node{Key: key, Value: value, CreatedIndex: i, ModifiedIndex: i, TTL: int64(ttl)}
	var prev *etcd.Node
	if f.nodeExists(key) {
		prev = f.Data[key].R.Node
		node.CreatedIndex = prev.CreatedIndex
	}
	f.Data[key] = EtcdResponseWithError{R: &etcd.Response{Action: "get", Node: node, EtcdIndex: i}}
	return &etcd.Response{Action: action, Node: node, PrevNode: prev, EtcdIndex: i}, nil
}

// Set stores value at key unconditionally.
func (f *FakeEtcdClient) Set(key, value string, ttl uint64) (*etcd.Response, error) {
	f.Lock()
	defer f.Unlock()
	f.record("set", key, 0, false)
	defer f.updateResponse(key)
	return f.setLocked("set", key, value, ttl)
}

// Create stores value at key unless the key exists.
func (f *FakeEtcdClient) Create(key, value string, ttl uint64) (*etcd.Response, error) {
	f.Lock()
	defer f.Unlock()
	f.record("create", key, 0, false)
	defer f.updateResponse(key)
	if f.Err != nil {
		return nil, f.Err
	}
	if f.nodeExists(key) {
		return nil, EtcdErrorNodeExist
	}
	return f.setLocked("create", key, value, ttl)
}

// CompareAndSwap stores value at key if its current value or index match.
func (f *FakeEtcdClient) CompareAndSwap(key, value string, ttl uint64, prevValue string, prevIndex uint64) (*etcd.Response, error) {
	f.Lock()
	defer f.Unlock()
	f.record("compareAndSwap", key, prevIndex, false)
	defer f.updateResponse(key)
	if f.Err != nil {
		return nil, f.Err
	}
	if !f.TestIndex {
		if f.t != nil {
			f.t.Errorf("enable TestIndex for a test that uses CompareAndSwap")
		}
		return nil, errors.New("enable TestIndex for a test that uses CompareAndSwap")
	}
	if prevValue == "" && prevIndex == 0 {
		return nil, errors.New("either prevValue or prevIndex must be specified")
	}
	if !f.nodeExists(key) {
		return nil, f.notFound()
	}
	prevNode := f.Data[key].R.Node
	if prevValue != "" && prevValue != prevNode.Value {
		return nil, EtcdErrorTestFailed
	}
	if prevIndex != 0 && prevIndex != prevNode.ModifiedIndex {
		return nil, EtcdErrorTestFailed
	}
	return f.setLocked("compareAndSwap", key, value, ttl)
}

// Delete removes key, or answers "not found".
func (f *FakeEtcdClient) Delete(key string, recursive bool) (*etcd.Response, error) {
	f.Lock()
	defer f.Unlock()
	f.record("delete", key, 0, recursive)
	if f.Err != nil {
		return nil, f.Err
	}
	if !f.nodeExists(key) {
		return nil, f.notFound()
	}
	prev := f.Data[key].R.Node
	i := f.generateIndex()
	f.Data[key] = EtcdResponseWithError{R: &etcd.Response{}, E: f.notFound()}
	f.DeletedKeys = append(f.DeletedKeys, key)
	return &etcd.Response{Action: "delete", Node: &etcd.Node{Key: key, ModifiedIndex: i, CreatedIndex: prev.CreatedIndex}, PrevNode: prev, EtcdIndex: i}, nil
}

// WaitForWatchCompletion blocks until Watch has been called and its fields
// are ready to use.
func (f *FakeEtcdClient) WaitForWatchCompletion() {
	<-f.watchStarted
}

// Watch behaves like go-etcd's with a receiver: it returns when stop fires
// (closed or sent to) or when the test injects an error, and closes
// receiver as it returns.
func (f *FakeEtcdClient) Watch(prefix string, waitIndex uint64, recursive bool, receiver chan *etcd.Response, stop chan bool) (*etcd.Response, error) {
	if receiver != nil {
		defer close(receiver)
	}
	f.Lock()
	f.record("watch", prefix, waitIndex, recursive)
	if f.WatchImmediateError != nil {
		err := f.WatchImmediateError
		f.Unlock()
		return nil, err
	}
	injectedError := make(chan error)
	f.WatchResponse = receiver
	f.WatchStop = stop
	f.WatchIndex = waitIndex
	f.WatchInjectError = injectedError
	f.Unlock()
	select {
	case f.watchStarted <- struct{}{}:
	default:
	}
	select {
	case <-stop:
		return nil, etcd.ErrWatchStoppedByUser
	case err := <-injectedError:
		return nil, err
	}
}
