package json

// Follows kubernetes/kubernetes pkg/watch/json/types.go as of v0.4.

import (
	"encoding/json"
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// watchEvent is one line of the stream.
type watchEvent struct {
	Type   watch.EventType `json:"type,omitempty"`
	Object json.RawMessage `json:"object,omitempty"`
}

// Object encodes event as one stream line (without the newline).
func Object(event *watch.Event) ([]byte, error) {
	obj, err := api.Encode(event.Object)
	if err != nil {
		return nil, err
	}
	return json.Marshal(&watchEvent{Type: event.Type, Object: obj})
}

// decodeLine reads one stream line into an event.
func decodeLine(line []byte) (watch.Event, error) {
	var got watchEvent
	if err := json.Unmarshal(line, &got); err != nil {
		return watch.Event{}, err
	}
	switch got.Type {
	case watch.Added, watch.Modified, watch.Deleted, watch.Error:
	default:
		return watch.Event{}, fmt.Errorf("got invalid watch event type: %q", got.Type)
	}
	if len(got.Object) == 0 {
		return watch.Event{}, fmt.Errorf("watch event %s has no object", got.Type)
	}
	obj, err := api.Decode(got.Object)
	if err != nil {
		return watch.Event{}, fmt.Errorf("unable to decode watch event object: %v", err)
	}
	return watch.Event{Type: got.Type, Object: obj}, nil
}
