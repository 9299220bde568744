package watch

// Follows kubernetes/kubernetes pkg/watch/iowatcher.go as of v0.4 (October
// 2014): the client side of a watch, fed by a decoder over the HTTP body.

import (
	"io"
	"sync"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// Decoder reads events one by one from a stream.
type Decoder interface {
	// Decode returns the next event; io.EOF when the stream ended cleanly.
	Decode() (action EventType, object api.Object, err error)
	// Close releases the stream and unblocks a pending Decode.
	Close()
}

// StreamWatcher turns a Decoder into an Interface.
type StreamWatcher struct {
	source  Decoder
	result  chan Event
	stopped bool
	sync.Mutex
}

// NewStreamWatcher starts reading source in a goroutine.
func NewStreamWatcher(d Decoder) *StreamWatcher {
	sw := &StreamWatcher{
		source: d,
		// The channel is unbuffered, as in 2014: the reader sets the pace.
		result: make(chan Event),
	}
	go sw.receive()
	return sw
}

// ResultChan returns the event channel.
func (sw *StreamWatcher) ResultChan() <-chan Event {
	return sw.result
}

// Stop closes the source; the reading goroutine then closes the channel.
func (sw *StreamWatcher) Stop() {
	sw.Lock()
	defer sw.Unlock()
	if !sw.stopped {
		sw.stopped = true
		sw.source.Close()
	}
}

func (sw *StreamWatcher) isStopped() bool {
	sw.Lock()
	defer sw.Unlock()
	return sw.stopped
}

// receive forwards events until the stream ends or Stop is called.
func (sw *StreamWatcher) receive() {
	defer close(sw.result)
	defer sw.Stop()
	defer util.HandleCrash()
	for {
		action, obj, err := sw.source.Decode()
		if err != nil {
			if sw.isStopped() {
				return
			}
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				glog.Errorf("unable to decode an event from the watch stream: %v", err)
			}
			return
		}
		sw.result <- Event{Type: action, Object: obj}
	}
}
