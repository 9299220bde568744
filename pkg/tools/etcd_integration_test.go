package tools

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

var keyCounter int64

// uniqueKey returns a key no other test uses, so that tests sharing one
// etcd do not see each other's writes.
func uniqueKey(prefix string) string {
	return fmt.Sprintf("/test/%s-%d", prefix, atomic.AddInt64(&keyCounter, 1))
}

// realHelper returns a helper on the package's etcd whose client is closed
// when t ends, so that the shared member can shut down promptly.
func realHelper(t testing.TB) EtcdHelper {
	client := NewEtcdClient([]string{etcdURL})
	t.Cleanup(CloseIdleConnections)
	return EtcdHelper{client}
}

func TestHelperAgainstRealEtcd(t *testing.T) {
	helper := realHelper(t)
	dir := uniqueKey("pods")

	var empty []api.Pod
	var emptyVersion uint64
	if err := helper.ExtractList(dir, &empty, &emptyVersion); err != nil || len(empty) != 0 || emptyVersion == 0 {
		t.Fatalf("list of a missing dir: %v, %v at %d; want empty at the current index", err, empty, emptyVersion)
	}

	pod := testPod("foo")
	if err := helper.CreateObj(dir+"/foo", pod); err != nil {
		t.Fatal(err)
	}
	if pod.ResourceVersion <= emptyVersion {
		t.Errorf("created at %d, not after %d", pod.ResourceVersion, emptyVersion)
	}
	if err := helper.CreateObj(dir+"/foo", testPod("foo")); !IsEtcdNodeExist(err) {
		t.Errorf("second create: %v, want 105", err)
	}
	stale := *pod
	pod.Labels["name"] = "changed"
	if err := helper.SetObj(dir+"/foo", pod); err != nil {
		t.Fatal(err)
	}
	if err := helper.SetObj(dir+"/foo", &stale); !IsEtcdTestFailed(err) {
		t.Errorf("stale set: %v, want 101", err)
	}
	var got api.Pod
	if err := helper.ExtractObj(dir+"/foo", &got, false); err != nil || got.Labels["name"] != "changed" || got.ResourceVersion != pod.ResourceVersion {
		t.Errorf("read back %v: %+v", err, got)
	}
	var list []api.Pod
	var listVersion uint64
	if err := helper.ExtractList(dir, &list, &listVersion); err != nil || len(list) != 1 || listVersion < pod.ResourceVersion {
		t.Errorf("list: %v, %d items at %d", err, len(list), listVersion)
	}
	if err := helper.Delete(dir+"/foo", false); err != nil {
		t.Fatal(err)
	}
	if err := helper.Delete(dir+"/foo", false); !IsEtcdNotFound(err) {
		t.Errorf("second delete: %v, want 100", err)
	}
}

func TestConcurrentAtomicUpdatesLoseNothing(t *testing.T) {
	helper := realHelper(t)
	key := uniqueKey("counter")
	const writers = 8
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			err := helper.AtomicUpdate(key, &api.Pod{}, func(in api.Object) (api.Object, error) {
				pod := in.(*api.Pod)
				pod.ID = "counter"
				if pod.Labels == nil {
					pod.Labels = map[string]string{}
				}
				pod.Labels[fmt.Sprintf("w%d", i)] = "done"
				return pod, nil
			})
			if err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		}(i)
	}
	wg.Wait()
	var pod api.Pod
	if err := helper.ExtractObj(key, &pod, false); err != nil || len(pod.Labels) != writers {
		t.Errorf("after %d writers: %v, labels %v", writers, err, pod.Labels)
	}
}

func TestAnUnreachableEtcdIsReportedAsSuch(t *testing.T) {
	helper := EtcdHelper{NewEtcdClient([]string{"http://127.0.0.1:1"})}
	var pod api.Pod
	err := helper.ExtractObj("/x", &pod, false)
	if !IsEtcdUnreachable(err) {
		t.Errorf("err = %v (%T), want unreachable", err, err)
	}
}

// collect reads n events, failing on anything but the expected kinds.
func collect(t *testing.T, w watch.Interface, n int) []watch.Event {
	t.Helper()
	var events []watch.Event
	for len(events) < n {
		events = append(events, watchtest.Next(t, w))
	}
	return events
}

type seen struct {
	typ watch.EventType
	id  string
	rv  uint64
}

func summary(events []watch.Event) []seen {
	var out []seen
	for _, e := range events {
		meta := e.Object.GetTypeMeta()
		out = append(out, seen{e.Type, meta.ID, meta.ResourceVersion})
	}
	return out
}

func TestWatchFromZeroThenResumeMissesAndRepeatsNothing(t *testing.T) {
	helper := realHelper(t)
	dir := uniqueKey("watched")
	a, b := testPod("a"), testPod("b")
	if err := helper.CreateObj(dir+"/a", a); err != nil {
		t.Fatal(err)
	}
	if err := helper.CreateObj(dir+"/b", b); err != nil {
		t.Fatal(err)
	}
	// Make a the most recently changed, so index order differs from key
	// order.
	a.Labels["v"] = "2"
	if err := helper.SetObj(dir+"/a", a); err != nil {
		t.Fatal(err)
	}

	w, _ := helper.WatchList(dir, 0, nil)
	first := summary(collect(t, w, 2))
	want := []seen{{watch.Added, "b", b.ResourceVersion}, {watch.Modified, "a", a.ResourceVersion}}
	if fmt.Sprint(first) != fmt.Sprint(want) {
		t.Fatalf("replay = %v, want %v", first, want)
	}
	if err := helper.Delete(dir+"/b", false); err != nil {
		t.Fatal(err)
	}
	deleted := summary(collect(t, w, 1))[0]
	if deleted.typ != watch.Deleted || deleted.id != "b" || deleted.rv <= a.ResourceVersion {
		t.Fatalf("delete event = %v", deleted)
	}
	watchtest.StopAndDrain(t, w)

	// While nobody watches: three more changes.
	c := testPod("c")
	if err := helper.CreateObj(dir+"/c", c); err != nil {
		t.Fatal(err)
	}
	a.Labels["v"] = "3"
	if err := helper.SetObj(dir+"/a", a); err != nil {
		t.Fatal(err)
	}
	if err := helper.Delete(dir+"/c", false); err != nil {
		t.Fatal(err)
	}

	w, _ = helper.WatchList(dir, deleted.rv, nil)
	defer watchtest.StopAndDrain(t, w)
	resumed := summary(collect(t, w, 3))
	if resumed[0] != (seen{watch.Added, "c", c.ResourceVersion}) || resumed[1] != (seen{watch.Modified, "a", a.ResourceVersion}) ||
		resumed[2].typ != watch.Deleted || resumed[2].id != "c" || resumed[2].rv <= a.ResourceVersion {
		t.Fatalf("resumed = %v", resumed)
	}
	select {
	case e := <-w.ResultChan():
		t.Fatalf("extra event %v", summary([]watch.Event{e}))
	case <-time.After(200 * time.Millisecond):
	}
}

func TestWatchingFromBeforeEtcdsEventWindowEndsInGone(t *testing.T) {
	helper := realHelper(t)
	key := uniqueKey("churn")
	pod := testPod("churn")
	if err := helper.CreateObj(key, pod); err != nil {
		t.Fatal(err)
	}
	early := pod.ResourceVersion
	// etcd keeps the last 1000 events; write more than that.
	for i := 0; i < 1010; i++ {
		if err := helper.SetObj(key, pod); err != nil {
			t.Fatal(err)
		}
	}
	w, _ := helper.Watch(key, early)
	event := watchtest.Next(t, w)
	status, ok := event.Object.(*api.Status)
	if event.Type != watch.Error || !ok || status.Code != 410 {
		t.Fatalf("got %s %#v, want ERROR 410", event.Type, event.Object)
	}
	t.Logf("gone: %s", status.Message)
	watchtest.ExpectClosed(t, w)
}

func TestStoppedWatchesLeaveNoGoroutinesBehind(t *testing.T) {
	helper := realHelper(t)
	dir := uniqueKey("leak")
	pod := testPod("x")
	if err := helper.CreateObj(dir+"/x", pod); err != nil {
		t.Fatal(err)
	}
	from := pod.ResourceVersion - 1
	for i := 0; i < 3; i++ {
		if err := helper.SetObj(dir+"/x", pod); err != nil {
			t.Fatal(err)
		}
	}
	cycle := func(i int) {
		var w watch.Interface
		switch i % 3 {
		case 0:
			// Four events wait: translate holds one for a reader that
			// never comes and go-etcd blocks handing over the next.
			w, _ = helper.WatchList(dir, from, nil)
			time.Sleep(time.Millisecond)
		case 1:
			// The replay is under way.
			w, _ = helper.WatchList(dir, 0, nil)
		default:
			// Idle: go-etcd waits in a long poll.
			w, _ = helper.Watch(dir+"/x", pod.ResourceVersion)
			time.Sleep(time.Millisecond)
		}
		w.Stop()
	}
	cycle(0)
	baseline := settledGoroutines()
	const cycles = 150
	for i := 0; i < cycles; i++ {
		cycle(i)
	}
	// A few idle keep-alive connections (two goroutines each) may
	// remain; a leak would be one or more goroutines per cycle.
	watchtest.GoroutinesAtMost(t, baseline+10)
}

func settledGoroutines() int {
	time.Sleep(200 * time.Millisecond)
	return runtime.NumGoroutine()
}

// TestHelperInProcess runs the helper's tests again with the shared member
// reached through its in-process connections, as the apiserver reaches its
// embedded member.
func TestHelperInProcess(t *testing.T) {
	CloseIdleConnections()
	var dials atomic.Int64
	host := strings.TrimPrefix(etcdURL, "http://")
	undo := DialInProcess(host, func(ctx context.Context) (net.Conn, error) {
		dials.Add(1)
		return sharedEtcd.Dial(ctx)
	})
	defer func() {
		undo()
		CloseIdleConnections()
	}()
	t.Run("helper", TestHelperAgainstRealEtcd)
	t.Run("atomic updates", TestConcurrentAtomicUpdatesLoseNothing)
	t.Run("watch and resume", TestWatchFromZeroThenResumeMissesAndRepeatsNothing)
	t.Run("stopped watches", TestStoppedWatchesLeaveNoGoroutinesBehind)
	if dials.Load() == 0 {
		t.Error("no request went through the in-process connection")
	}
}
