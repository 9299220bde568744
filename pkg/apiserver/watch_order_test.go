package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// eventKey is what identifies one event of a stream: its type and the name
// and resourceVersion of its object.
type eventKey struct {
	Type            watch.EventType
	ID              string
	ResourceVersion uint64
}

func (k eventKey) String() string {
	return fmt.Sprintf("%s %s rv=%d", k.Type, k.ID, k.ResourceVersion)
}

// streamDifference compares the events a stream carried with those sent
// into it and describes the first one that went missing, came twice or
// came out of order; it returns "" when they are the same.
func streamDifference(sent, got []eventKey) string {
	indexOf := func(keys []eventKey, k eventKey, from int) int {
		for i := from; i < len(keys); i++ {
			if keys[i] == k {
				return i
			}
		}
		return -1
	}
	n := len(sent)
	for i, want := range sent {
		if i >= len(got) {
			return fmt.Sprintf("event %d of %d (%s) missing; the stream ended after %d events", i+1, n, want, len(got))
		}
		if got[i] == want {
			continue
		}
		at := indexOf(sent, got[i], 0)
		switch {
		case at < 0:
			return fmt.Sprintf("event %d of %d (%s) missing; got %s, which was never sent", i+1, n, want, got[i])
		case at < i:
			return fmt.Sprintf("event %d of %d (%s) came twice; got it again where event %d (%s) was due", at+1, n, got[i], i+1, want)
		case indexOf(got, want, i+1) >= 0:
			return fmt.Sprintf("event %d of %d (%s) out of order; got %s (event %d) before it", i+1, n, want, got[i], at+1)
		default:
			return fmt.Sprintf("event %d of %d (%s) missing; got %s", i+1, n, want, got[i])
		}
	}
	if len(got) > n {
		return fmt.Sprintf("the stream carried %d events where %d were sent; the first extra is %s", len(got), n, got[n])
	}
	return ""
}

func TestStreamDifferenceNamesTheEventThatWentWrong(t *testing.T) {
	e := func(i int) eventKey { return eventKey{watch.Added, fmt.Sprintf("foo-%d", i), uint64(i)} }
	sent := []eventKey{e(1), e(2), e(3), e(4)}
	cases := []struct {
		name string
		got  []eventKey
		want string
	}{
		{"all there", []eventKey{e(1), e(2), e(3), e(4)}, ""},
		{"one dropped", []eventKey{e(1), e(3), e(4)}, "event 2 of 4 (ADDED foo-2 rv=2) missing; got ADDED foo-3 rv=3"},
		{"one duplicated", []eventKey{e(1), e(2), e(2), e(3), e(4)}, "event 2 of 4 (ADDED foo-2 rv=2) came twice; got it again where event 3 (ADDED foo-3 rv=3) was due"},
		{"two swapped", []eventKey{e(1), e(3), e(2), e(4)}, "event 2 of 4 (ADDED foo-2 rv=2) out of order; got ADDED foo-3 rv=3 (event 3) before it"},
		{"the last dropped", []eventKey{e(1), e(2), e(3)}, "event 4 of 4 (ADDED foo-4 rv=4) missing; the stream ended after 3 events"},
		{"one extra at the end", []eventKey{e(1), e(2), e(3), e(4), e(4)}, "the stream carried 5 events where 4 were sent; the first extra is ADDED foo-4 rv=4"},
		{"a wrong type", []eventKey{e(1), {watch.Modified, "foo-2", 2}, e(3), e(4)}, "event 2 of 4 (ADDED foo-2 rv=2) missing; got MODIFIED foo-2 rv=2, which was never sent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := streamDifference(sent, c.got); got != c.want {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestTheStreamCarriesEveryEventOnceAndInOrder sends several hundred events
// of every type through one HTTP watch stream, as fast as the server takes
// them, and reads the stream to its end. A stream that drops, repeats or
// reorders even one event, as a buffer or a counter that misbehaves every
// so many events would, fails naming the event.
func TestTheStreamCarriesEveryEventOnceAndInOrder(t *testing.T) {
	// 300 passes every power of two up to 256, where a buffer would wrap,
	// and a fault every 100 events twice over.
	const count = 300
	types := []watch.EventType{watch.Added, watch.Modified, watch.Deleted}
	sent := make([]eventKey, count)
	for i := range sent {
		sent[i] = eventKey{types[i%len(types)], fmt.Sprintf("foo-%d", i+1), uint64(1000 + i + 1)}
	}

	ts := newTestServer(t, Options{})
	_, r, fake, cancel := openWatch(t, ts, "")
	// A stream that never ends is cut after a generous deadline, and the
	// comparison says which events never came.
	deadline := time.AfterFunc(watchtest.Timeout, cancel)
	defer deadline.Stop()

	go func() {
		// The server stops the storage watch when its stream ends; one
		// that ends early closes the channel under this send, and the
		// comparison below reports the events that did not get through.
		defer func() { recover() }()
		for _, k := range sent {
			fake.Action(k.Type, &Simple{TypeMeta: api.TypeMeta{ID: k.ID, ResourceVersion: k.ResourceVersion}})
		}
		fake.Stop()
	}()

	var got []eventKey
	for {
		line, err := r.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Errorf("reading the stream after %d events: %v", len(got), err)
			break
		}
		event, obj := parseEventLine(t, line)
		got = append(got, eventKey{event, obj.ID, obj.ResourceVersion})
	}
	if diff := streamDifference(sent, got); diff != "" {
		t.Fatal(diff)
	}
}

// parseEventLine reads one line of a watch stream as an event on a Simple.
func parseEventLine(t *testing.T, line []byte) (watch.EventType, *Simple) {
	t.Helper()
	var ev streamLine
	if err := json.Unmarshal(line, &ev); err != nil {
		t.Fatalf("line is not an event: %v: %s", err, line)
	}
	return ev.Type, decodeSimple(t, ev.Object)
}
