package watch

// Follows kubernetes/kubernetes pkg/watch/watch.go as of v0.4 (October 2014).

import (
	"sync"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// Interface is a stream of events that can be stopped.
type Interface interface {
	// Stop ends the watch; the result channel is closed soon after.
	Stop()
	// ResultChan delivers the events; it is closed when the watch ends.
	ResultChan() <-chan Event
}

// EventType is what happened to the object of an event.
type EventType string

// The event types; ERROR carries an api.Status.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
	Error    EventType = "ERROR"
)

// Event is one change. For DELETED, Object is the last state before the
// deletion; for ERROR, it is an *api.Status.
type Event struct {
	Type   EventType
	Object api.Object
}

// FakeWatcher lets a test push events by hand.
type FakeWatcher struct {
	result  chan Event
	Stopped bool
	sync.Mutex
}

// NewFake returns a FakeWatcher whose channel is unbuffered.
func NewFake() *FakeWatcher {
	return &FakeWatcher{result: make(chan Event)}
}

// Stop closes the channel once.
func (f *FakeWatcher) Stop() {
	f.Lock()
	defer f.Unlock()
	if !f.Stopped {
		close(f.result)
		f.Stopped = true
	}
}

// IsStopped reports whether Stop has been called.
func (f *FakeWatcher) IsStopped() bool {
	f.Lock()
	defer f.Unlock()
	return f.Stopped
}

// ResultChan returns the event channel.
func (f *FakeWatcher) ResultChan() <-chan Event {
	return f.result
}

// Add sends an ADDED event.
func (f *FakeWatcher) Add(obj api.Object) { f.result <- Event{Added, obj} }

// Modify sends a MODIFIED event.
func (f *FakeWatcher) Modify(obj api.Object) { f.result <- Event{Modified, obj} }

// Delete sends a DELETED event carrying the last state.
func (f *FakeWatcher) Delete(lastValue api.Object) { f.result <- Event{Deleted, lastValue} }

// Error sends an ERROR event.
func (f *FakeWatcher) Error(errValue api.Object) { f.result <- Event{Error, errValue} }

// Action sends an event of any type.
func (f *FakeWatcher) Action(action EventType, obj api.Object) { f.result <- Event{action, obj} }
