package etcdpods

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	"k8s.io/client-go/util/workqueue"
)

// cluster starts a member whose peers can reach it and a source reading
// a learner of it (NewLearner).
func cluster(t *testing.T) (member *etcd.Server, src *Source) {
	t.Helper()
	ports, err := etcdtest.FreePorts(2)
	if err != nil {
		t.Fatal(err)
	}
	member, err = etcd.Start(etcd.Config{DataDir: t.TempDir(), PeerPort: ports[0], FastTicks: true, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(member.Close)
	src, err = NewLearner([]string{member.ClientURL()}, t.TempDir(), ports[1])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(src.Close)
	return member, src
}

// burst writes the pods first to first+n-1 to base from 32 writers at
// once, and with others as many keys outside the pods' prefix; it returns
// the first failure.
func burst(base string, first, n int, others bool) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	var failed error
	workqueue.ParallelizeUntil(ctx, 32, n, func(i int) {
		id := fmt.Sprintf("p%d", first+i)
		err := putTo(base, Prefix+"/"+id, podJSON(id, "burst"))
		if err == nil && others {
			err = putTo(base, fmt.Sprintf("/registry/controllers/c%d", first+i), "{}")
		}
		if err != nil {
			once.Do(func() { failed = err; cancel() })
		}
	})
	return failed
}

// watchBoth lists and watches every pod through both sources of src's
// learner: src itself, and a reader of its tail over HTTP, as another
// process's.
func watchBoth(t *testing.T, src *Source) (watches []watch.Interface, names []string) {
	t.Helper()
	for _, s := range []Pods{src, NewTailReader(src.LearnerURL())} {
		_, w, err := ListAndWatch(api.NewDefaultContext(), s, labels.Everything())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Stop)
		watches = append(watches, w)
	}
	return watches, []string{"the learner's source", "the tail's reader over HTTP"}
}

// indexOf returns the etcd index of the member at base now.
func indexOf(t *testing.T, base string) uint64 {
	t.Helper()
	probe, err := http.Get(base + "/v2/keys/none")
	if err != nil {
		t.Fatal(err)
	}
	probe.Body.Close()
	n, err := strconv.ParseUint(probe.Header.Get("X-Etcd-Index"), 10, 64)
	if err != nil {
		t.Fatalf("no index from %s: %v", base, err)
	}
	return n
}

// A learner's tail has every event under its prefix, once and in index
// order, however the learner batches what it applies: a burst of writes
// from 32 clients to the member, far more than etcd's window of 1000.
func TestALearnersTailHasEveryEventOfABurstInOrder(t *testing.T) {
	member, src := cluster(t)
	if _, err := src.tail.Subscribe(0); err == nil {
		t.Fatal("a subscription from index 0, before the tail began, was taken")
	}
	sub, err := src.tail.Subscribe(indexOf(t, src.LearnerURL()))
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	const n = 3000
	if err := burst(member.ClientURL(), 0, n, true); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var last uint64
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for len(seen) < n {
		events, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("after %d of %d pods: %v", len(seen), n, err)
		}
		for _, e := range events {
			if !strings.HasPrefix(e.Node.Key, "/1/registry/pods/") {
				t.Fatalf("event of %s, outside the prefix", e.Node.Key)
			}
			if e.Index() <= last {
				t.Fatalf("event at %d after %d", e.Index(), last)
			}
			last = e.Index()
			if seen[e.Node.Key] {
				t.Fatalf("%s twice", e.Node.Key)
			}
			seen[e.Node.Key] = true
		}
	}
}

// Another process reads the tail over the learner's client URL: every
// event after the index it asks for, as etcd's watch writes them, and an
// etcd error 401 for an index the tail does not have.
func TestTheTailStreamsOverHTTP(t *testing.T) {
	member, src := cluster(t)
	resp, err := http.Get(src.LearnerURL() + tailPath + "?after=0")
	if err != nil {
		t.Fatal(err)
	}
	var gone struct{ ErrorCode int }
	json.NewDecoder(resp.Body).Decode(&gone)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || gone.ErrorCode != 401 {
		t.Fatalf("after=0: %s, errorCode %d; want 400 with etcd's 401", resp.Status, gone.ErrorCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, src.LearnerURL()+tailPath+"?after="+strconv.FormatUint(indexOf(t, src.LearnerURL()), 10), nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := putTo(member.ClientURL(), "/registry/controllers/c", "{}"); err != nil {
		t.Fatal(err)
	}
	if err := putTo(member.ClientURL(), "/registry/pods/a", `{"id":"a"}`); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(resp.Body)
	if !lines.Scan() {
		t.Fatalf("the stream ended: %v", lines.Err())
	}
	var e struct {
		Action string
		Node   struct {
			Key, Value    string
			ModifiedIndex uint64
		}
	}
	if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
		t.Fatal(err)
	}
	if e.Action != "set" || e.Node.Key != "/registry/pods/a" || e.Node.Value != `{"id":"a"}` || e.Node.ModifiedIndex == 0 {
		t.Fatalf("first event %s", lines.Bytes())
	}
}

// Both sources of a learner, the one in this process and another
// process's reading its tail over HTTP, deliver every pod once and in
// index order to a reader held back until it is more than three of etcd's
// windows behind (3 100 events), and the tail itself held back while the
// learner applied 1 500 of them at once, as when one apply of the
// leader's batch outruns the tail's goroutine.
//
// Guards the tail's look-ahead (tailAhead): with a look-ahead of 1, the
// tail keeping 1 watcher waiting instead of 1 024, the tail finds the
// event after the one it holds gone from etcd's window of 1 000, and both
// watches end with a 410.
func TestATailHeldBackAndReadersFarBehindLoseNoEvent(t *testing.T) {
	member, src := cluster(t)
	watches, sources := watchBoth(t, src)
	// The tail takes in the burst's first event and waits there, its
	// look-ahead watchers waiting at the next indexes, until the learner
	// has applied the whole burst: more than etcd's window of 1 000, fewer
	// than that and tailAhead together.
	const held, n = 1500, 3100
	src.tail.held.Lock()
	release := sync.OnceFunc(src.tail.held.Unlock)
	defer release()
	if err := burst(member.ClientURL(), 0, held, false); err != nil {
		t.Fatal(err)
	}
	target := indexOf(t, member.ClientURL())
	watchtest.Within(t, 60*time.Second, "the learner to apply the burst", func() (bool, error) {
		return indexOf(t, src.LearnerURL()) >= target, nil
	})
	release()
	// Nothing is read until every pod is written.
	if err := burst(member.ClientURL(), held, n-held, false); err != nil {
		t.Fatal(err)
	}
	for i, w := range watches {
		seen := map[string]bool{}
		var last uint64
		for len(seen) < n {
			e := watchtest.Next(t, w)
			pod, ok := e.Object.(*api.Pod)
			if e.Type != watch.Added || !ok {
				t.Errorf("%s, after %d of %d pods: %s %v", sources[i], len(seen), n, e.Type, e.Object)
				break
			}
			if pod.ResourceVersion <= last || seen[pod.ID] {
				t.Errorf("%s: %s at %d after %d, seen before: %v", sources[i], pod.ID, pod.ResourceVersion, last, seen[pod.ID])
				break
			}
			last = pod.ResourceVersion
			seen[pod.ID] = true
		}
	}
}
