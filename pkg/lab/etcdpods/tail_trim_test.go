package etcdpods

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// storeTail returns a tail that follows no member: it holds the events a
// test adds, as the tail's goroutine adds those it takes in, after index
// covered, and cuts them to keep once it holds twice as many.
func storeTail(covered uint64, keep int) *tail {
	return &tail{covered: covered, keep: keep, subs: map[*subscription]bool{}}
}

// setEvent is the set of pod p<i> at index i, keyed as a member's store
// keys it.
func setEvent(i uint64) *v2store.Event {
	key := fmt.Sprintf("%s%s/p%d", etcdserver.StoreKeysPrefix, Prefix, i)
	return &v2store.Event{Action: v2store.Set, Node: &v2store.NodeExtern{Key: key, ModifiedIndex: i, CreatedIndex: i}}
}

// eventsAfter returns the indexes of index, in order, that come after
// from.
func eventsAfter(index []uint64, from uint64) []uint64 {
	i := sort.Search(len(index), func(i int) bool { return index[i] > from })
	return index[i:]
}

// drain returns the indexes of the events sub holds now, without waiting
// for more.
func drain(sub *subscription) []uint64 {
	done, cancel := context.WithCancel(context.Background())
	cancel()
	var got []uint64
	for {
		events, err := sub.Next(done)
		if err != nil {
			return got
		}
		for _, e := range events {
			got = append(got, e.Index())
		}
	}
}

// missingFrom compares the indexes a subscriber got, after index after,
// with the events it should have had, and names the first event missing,
// repeated or out of place; it returns "" if they agree.
func missingFrom(after uint64, got, want []uint64) string {
	prev := after
	for i, w := range want {
		if i == len(got) {
			msg := fmt.Sprintf("after %d the subscriber got nothing more: event %d missing", prev, w)
			if rest := len(want) - i - 1; rest > 0 {
				msg += fmt.Sprintf(", and the %d after it", rest)
			}
			return msg
		}
		switch g := got[i]; {
		case g == w:
		case g > w:
			return fmt.Sprintf("after %d the subscriber got %d: event %d missing", prev, g, w)
		case g <= prev:
			return fmt.Sprintf("after %d the subscriber got %d, which is not after it", prev, g)
		default:
			return fmt.Sprintf("after %d the subscriber got %d, where there is no event, before event %d", prev, g, w)
		}
		prev = w
	}
	if len(got) > len(want) {
		return fmt.Sprintf("after %d, the latest event, the subscriber got %d too", prev, got[len(want)])
	}
	return ""
}

// A tail holds at most twice tailKept events, cut to its latest tailKept
// at each trim. A subscription from any event it still holds, the oldest
// at the moment of a trim (its edge) included, or from an index between
// two of them, gets every event after it: those the tail holds at once,
// those it takes in later as they come, across later trims. One from an
// event a trim let go is refused with errTailLost, as Subscribe documents.
// The tail here is fed by hand, past the real tailKept twice.
//
// Guards the trim against keeping fewer events than tailKept, which the
// subscription at the edge finds with the oldest event missing or
// refused, and Subscribe against starting anywhere but at the first event
// after its index.
func TestATailPastItsTrimsGivesASubscriptionFromBehindEveryEventAfterIt(t *testing.T) {
	const start = 1000
	k := tailKept
	// moments are when subscriptions are taken: once the tail has taken
	// in as many events as the field events says, of which it holds held.
	moments := []struct {
		name         string
		events, held int
	}{
		{"before the first trim", 2 * k, 2 * k},
		{"at the first trim", 2*k + 1, k},
		{"between trims", 2*k + 1 + k/2, k + k/2},
		{"at the second trim", 3*k + 2, k},
	}
	layouts := []struct {
		name string
		// step is the distance between two events' indexes: where it is
		// more than one, other keys' writes take the indexes between.
		step uint64
	}{
		{"an event at every index", 1},
		{"other keys' writes between the events", 3},
	}
	for _, l := range layouts {
		t.Run(l.name, func(t *testing.T) {
			tl := storeTail(start, k)
			var index []uint64
			type reader struct {
				name string
				sub  *subscription
				// last is the index up to which its events were checked.
				last uint64
			}
			var readers []*reader
			for _, m := range moments {
				for len(index) < m.events {
					i := start + uint64(len(index)+1)*l.step
					index = append(index, i)
					tl.add(setEvent(i))
				}
				latest := index[len(index)-1]
				// Those who subscribed at an earlier moment have had every
				// event since, through the trims between.
				for _, r := range readers {
					if msg := missingFrom(r.last, drain(r.sub), eventsAfter(index, r.last)); msg != "" {
						t.Errorf("%s, from a subscription %s: %s", m.name, r.name, msg)
					}
					r.last = latest
				}
				// from returns the index after which a subscription gets
				// the latest behind events: the event before them, or the
				// index the tail began at.
				from := func(behind int) uint64 {
					if behind == len(index) {
						return start
					}
					return index[len(index)-behind-1]
				}
				type point struct {
					name  string
					after uint64
				}
				var points []point
				for _, behind := range []int{0, 1, 2, 3, 1000, m.held - 1, m.held} {
					name := fmt.Sprintf("%s, from %d behind the latest event", m.name, behind)
					if behind == m.held {
						name += ", at the edge"
					}
					points = append(points, point{name, from(behind)})
					if l.step > 1 && behind > 0 {
						points = append(points, point{name + ", from the index after an event", from(behind) + 1})
					}
				}
				for _, p := range points {
					sub, err := tl.Subscribe(p.after)
					if err != nil {
						t.Errorf("%s: subscribing after %d failed: %v", p.name, p.after, err)
						continue
					}
					if msg := missingFrom(p.after, drain(sub), eventsAfter(index, p.after)); msg != "" {
						t.Errorf("%s: %s", p.name, msg)
					}
					readers = append(readers, &reader{name: p.name, sub: sub, last: latest})
				}
				if m.held == len(index) {
					continue
				}
				// The event before the edge, and the index before the
				// edge's, are gone.
				edge := from(m.held)
				for _, after := range []uint64{from(m.held + 1), edge - 1} {
					if _, err := tl.Subscribe(after); err != errTailLost {
						t.Errorf("%s: subscribing after %d, before the edge at %d, got %v; want errTailLost", m.name, after, edge, err)
					}
				}
			}
		})
	}
}

// A subscription can begin after an index the tail has not reached yet,
// read from a store that runs ahead of it; it gets only the events after
// that index, not those the tail takes in on the way there.
func TestASubscriptionFromAheadOfTheTailGetsOnlyTheEventsAfterItsIndex(t *testing.T) {
	tl := storeTail(100, tailKept)
	for i := uint64(101); i <= 110; i++ {
		tl.add(setEvent(i))
	}
	sub, err := tl.Subscribe(115)
	if err != nil {
		t.Fatal(err)
	}
	var want []uint64
	for i := uint64(111); i <= 120; i++ {
		tl.add(setEvent(i))
		if i > 115 {
			want = append(want, i)
		}
	}
	if msg := missingFrom(115, drain(sub), want); msg != "" {
		t.Error(msg)
	}
}

// A tail following a member, its trim lowered to keep 50 events, takes in
// every pod written to the member, and after its second trim gives a
// subscription from each of its latest 50 events, the edge included,
// every event after it, then those written later; it refuses one from the
// event before the edge.
func TestATailFollowingAMemberPastItsTrimsHasEveryEventAfterItsEdge(t *testing.T) {
	member := etcdtest.New(t)
	t.Cleanup(closeIdleConnections)
	tl, err := followTail(member.Server, Prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	const keep = 50
	tl.mu.Lock()
	tl.keep = keep
	tl.mu.Unlock()
	// The tail cuts its events at its (2*keep+1)th event and at every
	// keep+1 after: this many pods end on its second trim.
	const n = 3*keep + 2
	var index []uint64
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("p%d", i)
		index = append(index, write(t, member.ClientURL(), http.MethodPut, Prefix+"/"+id, podJSON(id, "trim")))
	}
	// tookIn waits until the tail has taken in the change at index i.
	tookIn := func(i uint64) {
		t.Helper()
		watchtest.Eventually(t, fmt.Sprintf("the tail to take in the pod written at %d", i), func() bool {
			tl.mu.Lock()
			defer tl.mu.Unlock()
			return len(tl.kept) > 0 && tl.kept[len(tl.kept)-1].Index() >= i
		})
	}
	tookIn(index[n-1])
	type reader struct {
		behind int
		after  uint64
		sub    *subscription
	}
	var readers []reader
	for _, behind := range []int{0, 1, 2, 7, keep - 1, keep} {
		after := index[n-behind-1]
		sub, err := tl.Subscribe(after)
		if err != nil {
			t.Errorf("subscribing from %d behind the latest event, after %d, failed: %v", behind, after, err)
			continue
		}
		defer sub.Close()
		if msg := missingFrom(after, drain(sub), eventsAfter(index, after)); msg != "" {
			t.Errorf("from %d behind the latest event: %s", behind, msg)
		}
		readers = append(readers, reader{behind, after, sub})
	}
	if _, err := tl.Subscribe(index[n-keep-2]); err != errTailLost {
		t.Errorf("subscribing after %d, the event before the edge at %d, got %v; want errTailLost", index[n-keep-2], index[n-keep-1], err)
	}
	latest := index[n-1]
	for i := n; i < n+5; i++ {
		id := fmt.Sprintf("p%d", i)
		index = append(index, write(t, member.ClientURL(), http.MethodPut, Prefix+"/"+id, podJSON(id, "trim")))
	}
	tookIn(index[len(index)-1])
	for _, r := range readers {
		if msg := missingFrom(latest, drain(r.sub), eventsAfter(index, latest)); msg != "" {
			t.Errorf("subscribed from %d behind, after %d, the pods written since: %s", r.behind, r.after, msg)
		}
	}
}
