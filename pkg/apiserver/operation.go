package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/operation.go as of v0.4
// (October 2014): a write that outlasts the handler's wait becomes an
// operation with a numeric id, which the client polls at
// <prefix>/operations/<id> until it holds the result.

import (
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// How long a finished operation is kept, and how often old ones are
// dropped: v0.4's constants.
const (
	operationMaxAge      = 10 * time.Minute
	operationSweepPeriod = 5 * time.Minute
)

// OperationHandler serves <prefix>/operations and <prefix>/operations/<id>.
type OperationHandler struct {
	server *apiServer
}

// ServeHTTP lists the operations, or answers one: 202 and a Working Status
// while it runs, then 200 and its result. As in v0.4 the result is sent
// with 200 even when it is an error Status; its code is in the body.
func (h *OperationHandler) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	id, hasID := mux.Vars(req)["id"]
	verb := verbList
	if hasID {
		verb = verbGet
	}
	label(w, verb, resourceOperations)
	if req.Method != http.MethodGet {
		methodNotAllowed(w, req, "GET", "operations are read-only")
		return
	}
	ops := h.server.ops
	if !hasID {
		writeJSON(w, http.StatusOK, ops.List())
		return
	}
	op := ops.Get(id)
	if op == nil {
		errorJSON(w, errors.NewNotFound("operation", id))
		return
	}
	obj, complete := op.StatusOrResult()
	if complete {
		writeJSON(w, http.StatusOK, obj)
	} else {
		writeJSON(w, http.StatusAccepted, obj)
	}
}

// Operation is one write the server is carrying out or has finished.
type Operation struct {
	ID        string
	result    api.Object
	onReceive func(api.Object)
	awaiting  <-chan api.Object
	finished  *time.Time
	lock      sync.Mutex
	notify    chan struct{}
	now       func() time.Time
}

// Operations holds the operations clients have been told about.
type Operations struct {
	lastID atomic.Int64

	// lock guards ops and lastSweep.
	lock      sync.Mutex
	ops       map[string]*Operation
	lastSweep time.Time

	// now is the clock; tests replace it to age operations.
	now func() time.Time
}

// NewOperations returns an empty set of operations.
//
// Ours: v0.4 started a goroutine here that swept old operations every five
// minutes for the life of the process. Sweeping instead when operations
// are next touched needs no goroutine (so a handler leaves nothing running
// behind it) and still bounds memory, since only touching adds operations.
func NewOperations() *Operations {
	ops := &Operations{ops: map[string]*Operation{}, now: time.Now}
	ops.lastSweep = ops.now()
	return ops
}

// NewOperation starts tracking the result channel from under the next id
// and returns at once. onReceive, if not nil, sees the result before anyone
// else does.
//
// Ours: v0.4 listed every operation here. This one is listed only by
// insert, once the handler has given its id to the client: a write that
// finished within the wait (nearly all of them) is never listed, so a busy
// server does not hold ten minutes of results nobody can ask for.
func (ops *Operations) NewOperation(from <-chan api.Object, onReceive func(api.Object)) *Operation {
	id := ops.lastID.Add(1)
	op := &Operation{
		ID:        strconv.FormatInt(id, 10),
		awaiting:  from,
		onReceive: onReceive,
		notify:    make(chan struct{}),
		now:       ops.now,
	}
	go op.wait()
	return op
}

// insert lists op.
func (ops *Operations) insert(op *Operation) {
	ops.lock.Lock()
	defer ops.lock.Unlock()
	ops.sweepIfDue()
	ops.ops[op.ID] = op
}

// List returns the listed operations, their ids sorted as strings ("10"
// before "2"), as v0.4 sorted them.
func (ops *Operations) List() *api.ServerOpList {
	ops.lock.Lock()
	defer ops.lock.Unlock()
	ops.sweepIfDue()
	ids := make([]string, 0, len(ops.ops))
	for id := range ops.ops {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	list := &api.ServerOpList{}
	for _, id := range ids {
		list.Items = append(list.Items, api.ServerOp{TypeMeta: api.TypeMeta{ID: id}})
	}
	return list
}

// Get returns the operation with the given id, or nil.
func (ops *Operations) Get(id string) *Operation {
	ops.lock.Lock()
	defer ops.lock.Unlock()
	ops.sweepIfDue()
	return ops.ops[id]
}

// sweepIfDue drops old operations if the sweep period has passed since the
// last sweep. ops.lock must be held.
func (ops *Operations) sweepIfDue() {
	now := ops.now()
	if now.Sub(ops.lastSweep) < operationSweepPeriod {
		return
	}
	ops.lastSweep = now
	ops.expire(now, operationMaxAge)
}

// expire drops operations that finished more than maxAge before now;
// running ones are kept however old. ops.lock must be held.
func (ops *Operations) expire(now time.Time, maxAge time.Duration) {
	limit := now.Add(-maxAge)
	for id, op := range ops.ops {
		if op.expired(limit) {
			delete(ops.ops, id)
		}
	}
}

// wait receives the result, records when it came and wakes every WaitFor.
// It runs in its own goroutine from NewOperation until the storage answers,
// and no longer.
func (op *Operation) wait() {
	defer util.HandleCrash()
	result, ok := <-op.awaiting
	if !ok || result == nil {
		result = errToAPIStatus(errors.NewInternalError(errNoResult))
	}

	op.lock.Lock()
	defer op.lock.Unlock()
	if op.onReceive != nil {
		op.onReceive(result)
	}
	op.result = result
	finished := op.now()
	op.finished = &finished
	close(op.notify)
}

// errNoResult is the error of a storage whose channel closed empty.
var errNoResult = errorString("the storage closed its result channel without a result")

type errorString string

func (e errorString) Error() string { return string(e) }

// WaitFor waits until the operation finishes or timeout passes.
func (op *Operation) WaitFor(timeout time.Duration) {
	if timeout <= 0 {
		return
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-op.notify:
	}
}

// expired reports whether the operation finished before limit.
func (op *Operation) expired(limit time.Time) bool {
	op.lock.Lock()
	defer op.lock.Unlock()
	return op.finished != nil && op.finished.Before(limit)
}

// StatusOrResult returns the result and true once the operation is done;
// before that, a Working Status naming the operation, and false.
func (op *Operation) StatusOrResult() (description api.Object, finished bool) {
	op.lock.Lock()
	defer op.lock.Unlock()
	if op.finished == nil {
		return &api.Status{
			Status:  api.StatusWorking,
			Reason:  api.StatusReasonWorking,
			Details: &api.StatusDetails{ID: op.ID, Kind: "operation"},
		}, false
	}
	return op.result, true
}
