package tools

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// feed hands responses to the fake's watch from another goroutine: the
// watcher takes the next one only after its event has been read.
func feed(fake *FakeEtcdClient, responses ...*etcd.Response) {
	go func() {
		for _, res := range responses {
			fake.WatchResponse <- res
		}
	}()
}

func podNamed(labelValue string) *api.Pod {
	pod := testPod("foo")
	pod.Labels = map[string]string{"name": labelValue}
	return pod
}

func fooFilter(obj api.Object) bool {
	return obj.(*api.Pod).Labels["name"] == "foo"
}

func TestWatchTranslatesEachEtcdActionWithFilterTransitions(t *testing.T) {
	cases := []struct {
		name     string
		action   string
		cur, old *api.Pod
		created  uint64
		want     watch.EventType
		wantName string
		wantRV   uint64
	}{
		{"create", "create", podNamed("foo"), nil, 5, watch.Added, "foo", 5},
		{"create filtered out", "create", podNamed("bar"), nil, 5, "", "", 0},
		{"set that stays in", "set", podNamed("foo"), podNamed("foo"), 1, watch.Modified, "foo", 5},
		{"set that enters", "set", podNamed("foo"), podNamed("bar"), 1, watch.Added, "foo", 5},
		{"set that leaves", "compareAndSwap", podNamed("bar"), podNamed("foo"), 1, watch.Deleted, "foo", 5},
		{"set that stays out", "update", podNamed("bar"), podNamed("baz"), 1, "", "", 0},
		{"set of a new key", "set", podNamed("foo"), nil, 5, watch.Added, "foo", 5},
		{"delete", "delete", nil, podNamed("foo"), 1, watch.Deleted, "foo", 5},
		{"expire", "expire", nil, podNamed("foo"), 1, watch.Deleted, "foo", 5},
		{"compare and delete", "compareAndDelete", nil, podNamed("foo"), 1, watch.Deleted, "foo", 5},
		{"delete filtered out", "delete", nil, podNamed("bar"), 1, "", "", 0},
		{"unknown action", "frobnicate", podNamed("foo"), nil, 5, "", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := NewFakeEtcdClient(t)
			helper := EtcdHelper{fake}
			w, _ := helper.WatchList("/pods", 4, fooFilter)
			fake.WaitForWatchCompletion()
			if fake.WatchIndex != 5 {
				t.Errorf("waitIndex = %d, want 5 (strictly after 4)", fake.WatchIndex)
			}
			res := &etcd.Response{Action: c.action, Node: &etcd.Node{Key: "/pods/foo", ModifiedIndex: 5, CreatedIndex: c.created}}
			if c.cur != nil {
				res.Node.Value = encodeOrDie(t, c.cur)
			}
			if c.old != nil {
				res.PrevNode = &etcd.Node{Key: "/pods/foo", Value: encodeOrDie(t, c.old), ModifiedIndex: 1, CreatedIndex: 1}
			}
			// A marker after the case tells "no event" from "late event".
			marker := &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/m", Value: encodeOrDie(t, podNamed("foo")), ModifiedIndex: 6, CreatedIndex: 6}}
			feed(fake, res, marker)
			event := watchtest.Next(t, w)
			if c.want != "" {
				pod := event.Object.(*api.Pod)
				if event.Type != c.want || pod.Labels["name"] == "" || pod.ResourceVersion != c.wantRV {
					t.Errorf("got %s of %v at %d, want %s at %d", event.Type, pod.Labels, pod.ResourceVersion, c.want, c.wantRV)
				}
				event = watchtest.Next(t, w)
			}
			if event.Object.(*api.Pod).ResourceVersion != 6 {
				t.Errorf("got %s at %d where only the marker was expected", event.Type, event.Object.(*api.Pod).ResourceVersion)
			}
			w.Stop()
			watchtest.ExpectClosed(t, w)
		})
	}
}

func TestWatchFromZeroReplaysWhatExistsInIndexOrderThenWatchesOn(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	modified := podNamed("foo")
	modified.ID = "a"
	fake.Data["/pods"] = EtcdResponseWithError{R: &etcd.Response{
		EtcdIndex: 10,
		Node: &etcd.Node{Dir: true, Nodes: []*etcd.Node{
			{Key: "/pods/a", Value: encodeOrDie(t, modified), ModifiedIndex: 9, CreatedIndex: 2},
			{Key: "/pods/b", Value: encodeOrDie(t, podNamed("foo")), ModifiedIndex: 3, CreatedIndex: 3},
			{Key: "/pods/c", Value: encodeOrDie(t, podNamed("bar")), ModifiedIndex: 4, CreatedIndex: 4},
		}},
	}}
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 0, fooFilter)
	first, second := watchtest.Next(t, w), watchtest.Next(t, w)
	if first.Type != watch.Added || first.Object.(*api.Pod).ResourceVersion != 3 {
		t.Errorf("first = %s at %d, want ADDED at 3", first.Type, first.Object.(*api.Pod).ResourceVersion)
	}
	if second.Type != watch.Modified || second.Object.(*api.Pod).ResourceVersion != 9 {
		t.Errorf("second = %s at %d, want MODIFIED at 9 (it was changed after creation)", second.Type, second.Object.(*api.Pod).ResourceVersion)
	}
	fake.WaitForWatchCompletion()
	if fake.WatchIndex != 11 {
		t.Errorf("watch went on from %d, want 11", fake.WatchIndex)
	}
	w.Stop()
	watchtest.ExpectClosed(t, w)
}

func TestWatchOfAMissingKeyStartsAfterTheIndexInTheNotFoundError(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.Data["/pods/foo"] = EtcdResponseWithError{R: &etcd.Response{}, E: &etcd.EtcdError{ErrorCode: 100, Index: 41}}
	helper := EtcdHelper{fake}
	w, _ := helper.Watch("/pods/foo", 0)
	fake.WaitForWatchCompletion()
	if fake.WatchIndex != 42 {
		t.Errorf("waitIndex = %d, want 42", fake.WatchIndex)
	}
	w.Stop()
	watchtest.ExpectClosed(t, w)
}

func TestWatchSkipsValuesItCannotDecode(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 1, nil)
	fake.WaitForWatchCompletion()
	fake.WatchResponse <- &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/x", Value: "garbage", ModifiedIndex: 2, CreatedIndex: 2}}
	fake.WatchResponse <- &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/foo", Value: encodeOrDie(t, podNamed("foo")), ModifiedIndex: 3, CreatedIndex: 3}}
	if event := watchtest.Next(t, w); event.Object.(*api.Pod).ResourceVersion != 3 {
		t.Errorf("got %#v", event)
	}
	w.Stop()
	watchtest.ExpectClosed(t, w)
}

func TestWatchDropsAnEventThatIsNotAfterTheLastOne(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 1, nil)
	fake.WaitForWatchCompletion()
	var responses []*etcd.Response
	for _, index := range []uint64{5, 5, 4, 6} {
		responses = append(responses, &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/foo", Value: encodeOrDie(t, podNamed("foo")), ModifiedIndex: index, CreatedIndex: index}})
	}
	feed(fake, responses...)
	for _, want := range []uint64{5, 6} {
		if got := watchtest.Next(t, w).Object.(*api.Pod).ResourceVersion; got != want {
			t.Errorf("got %d, want %d", got, want)
		}
	}
	w.Stop()
	watchtest.ExpectClosed(t, w)
}

func TestWatchEndsWithOneGoneErrorWhenEtcdForgotTheIndex(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 5, nil)
	fake.WaitForWatchCompletion()
	fake.WatchInjectError <- &etcd.EtcdError{ErrorCode: 401, Message: "The event in requested index is outdated and cleared", Cause: "the requested history has been cleared [1020/6]"}
	event := watchtest.Next(t, w)
	status, ok := event.Object.(*api.Status)
	if event.Type != watch.Error || !ok {
		t.Fatalf("got %s %#v, want an ERROR with a Status", event.Type, event.Object)
	}
	if status.Code != 410 || status.Reason != api.StatusReasonGone || !strings.Contains(status.Message, "resourceVersion 5") || !strings.Contains(status.Message, "1020") {
		t.Errorf("status = %+v", status)
	}
	watchtest.ExpectClosed(t, w)
}

func TestWatchReportsOtherEtcdFailuresAsAnErrorEvent(t *testing.T) {
	cases := []struct {
		name string
		err  error
		code int
	}{
		{"unreachable", &etcd.EtcdError{ErrorCode: etcd.ErrCodeEtcdNotReachable}, 503},
		{"anything else", errors.New("boom"), 500},
	}
	defer shortWatchRetries()()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := NewFakeEtcdClient(t)
			fake.WatchImmediateError = c.err
			helper := EtcdHelper{fake}
			w, _ := helper.WatchList("/pods", 5, nil)
			event := watchtest.Next(t, w)
			if status, ok := event.Object.(*api.Status); event.Type != watch.Error || !ok || status.Code != c.code {
				t.Errorf("got %s %#v, want ERROR %d", event.Type, event.Object, c.code)
			}
			watchtest.ExpectClosed(t, w)
		})
	}
}

func TestWatchReportsAFailedInitialRead(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	fake.Data["/pods"] = EtcdResponseWithError{E: errors.New("boom")}
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 0, nil)
	if event := watchtest.Next(t, w); event.Type != watch.Error {
		t.Errorf("got %s", event.Type)
	}
	watchtest.ExpectClosed(t, w)
}

func TestStoppingAWatchStopsEtcdsWatchEvenWithAnEventUntaken(t *testing.T) {
	fake := NewFakeEtcdClient(t)
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 1, nil)
	fake.WaitForWatchCompletion()
	fake.WatchResponse <- &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/foo", Value: encodeOrDie(t, podNamed("foo")), ModifiedIndex: 2, CreatedIndex: 2}}
	// The event waits for a reader that never comes.
	w.Stop()
	w.Stop()
	for range w.ResultChan() {
	}
	select {
	case _, ok := <-fake.WatchResponse:
		if ok {
			t.Error("etcd's receiver still open")
		}
	case <-time.After(30 * time.Second):
		t.Error("etcd's Watch did not return after Stop")
	}
}

// shortWatchRetries makes failed etcd watches give up quickly; the returned
// function restores the defaults.
func shortWatchRetries() func() {
	retries, backoff := WatchRetries, WatchRetryBackoff
	WatchRetries, WatchRetryBackoff = 2, time.Millisecond
	return func() { WatchRetries, WatchRetryBackoff = retries, backoff }
}

func TestAWatchResumesFromItsLastIndexWhenAnEtcdRequestFails(t *testing.T) {
	defer shortWatchRetries()()
	fake := NewFakeEtcdClient(t)
	helper := EtcdHelper{fake}
	w, _ := helper.WatchList("/pods", 1, nil)
	fake.WaitForWatchCompletion()
	fake.WatchResponse <- &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/foo", Value: encodeOrDie(t, podNamed("foo")), ModifiedIndex: 2, CreatedIndex: 2}}
	if event := watchtest.Next(t, w); event.Type != watch.Added {
		t.Fatalf("got %s", event.Type)
	}
	// The member answering the watch dies: go-etcd returns a bare error.
	fake.WatchInjectError <- errors.New("unexpected end of JSON input")
	fake.WaitForWatchCompletion()
	fake.Lock()
	index := fake.WatchIndex
	fake.Unlock()
	if index != 3 {
		t.Errorf("the retried watch asked for index %d, want 3, right after the last event", index)
	}
	fake.WatchResponse <- &etcd.Response{Action: "create", Node: &etcd.Node{Key: "/pods/bar", Value: encodeOrDie(t, podNamed("bar")), ModifiedIndex: 3, CreatedIndex: 3}}
	if event := watchtest.Next(t, w); event.Type != watch.Added || event.Object.GetTypeMeta().ResourceVersion != 3 {
		t.Fatalf("got %s %v after the retry", event.Type, event.Object)
	}
	w.Stop()
}
