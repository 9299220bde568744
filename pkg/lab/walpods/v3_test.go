package walpods

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/wal"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
)

// runV3 is what a v3 run left: the writers' counts, the reference watch's
// events, the reader's events and costs.
type runV3 struct {
	dataDir  string
	work     *workV3
	watched  []Event
	events   []Event
	costs    []Cost
	reader   *Reader
	finalRev int64
	duration time.Duration
}

// watcher is the reference: a v3 watch on Prefix from revision 1, with
// the previous value of every delete, as the apiserver's watch cache
// opens it.
type watcher struct {
	mu     sync.Mutex
	events []Event
	// rev is the revision the watch has reached: the last event's, or
	// the last progress notification's.
	rev  atomic.Int64
	err  error
	done chan struct{}
}

func startWatcher(ctx context.Context, cli *clientv3.Client) *watcher {
	w := &watcher{done: make(chan struct{})}
	wch := cli.Watch(clientv3.WithRequireLeader(ctx), Prefix, clientv3.WithPrefix(), clientv3.WithRev(1), clientv3.WithPrevKV(), clientv3.WithProgressNotify())
	go func() {
		defer close(w.done)
		for resp := range wch {
			if err := resp.Err(); err != nil {
				w.mu.Lock()
				w.err = err
				w.mu.Unlock()
				return
			}
			w.mu.Lock()
			for _, e := range resp.Events {
				ev := Event{Key: string(e.Kv.Key), StoreIndex: uint64(e.Kv.ModRevision)}
				switch {
				case e.Type == mvccpb.DELETE:
					ev.Type = Deleted
					if e.PrevKv != nil {
						ev.Value = string(e.PrevKv.Value)
					}
				case e.IsCreate():
					ev.Type, ev.Value = Created, string(e.Kv.Value)
				default:
					ev.Type, ev.Value = Updated, string(e.Kv.Value)
				}
				w.events = append(w.events, ev)
			}
			w.mu.Unlock()
			// A response's header names the store's revision when the
			// member sent it, which runs ahead of its events while the
			// watch catches up (as when the client resumes it after the
			// member restarts, in batches): only the events, and a
			// progress notification, say how far the watch has come.
			var rev int64
			if n := len(resp.Events); n > 0 {
				rev = resp.Events[n-1].Kv.ModRevision
			} else if resp.IsProgressNotify() {
				rev = resp.Header.Revision
			}
			if rev > w.rev.Load() {
				w.rev.Store(rev)
			}
		}
	}()
	return w
}

// waitFor waits until the watch has reached rev, asking the member for
// progress notifications.
func (w *watcher) waitFor(ctx context.Context, cli *clientv3.Client, rev int64) error {
	for w.rev.Load() < rev {
		if err := cli.RequestProgress(ctx); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the watch is at revision %d, short of %d: %v", w.rev.Load(), rev, ctx.Err())
		case <-w.done:
			return fmt.Errorf("the watch ended at revision %d, short of %d: %v", w.rev.Load(), rev, w.err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// v3Config is one v3 run.
type v3Config struct {
	writers, ops int
	// every is how often the reader polls.
	every time.Duration
	// midway, if set, runs while the writers write (a restart of the
	// member, say); writing is closed when they are done. An error
	// fails the run.
	midway func(ctx context.Context, writing <-chan struct{}) error
}

// followV3 writes cfg's workload and the zoo's to the member at endpoint
// while a v3 reader polls its WAL in dataDir and a watch records every pod
// event, waits until both have reached the member's last revision, and
// checks the reader's keyspace against the member's.
func followV3(t *testing.T, endpoint, dataDir string, cfg v3Config) *runV3 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cli := newClientV3(t, endpoint)
	wcli := newClientV3(t, endpoint)
	watch := startWatcher(ctx, wcli)

	r := NewReaderV3(dataDir)
	out := &runV3{dataDir: dataDir, reader: r, work: &workV3{}}
	var target atomic.Int64
	done := make(chan error, 1)
	go func() {
		// Once the goal is set, a reader that reads nothing new for
		// stallAfter while short of it has diverged from the member.
		var lastIndex uint64
		lastNew := time.Now()
		for {
			evs, cost, err := r.Poll()
			if err != nil {
				done <- err
				return
			}
			out.events = append(out.events, evs...)
			out.costs = append(out.costs, cost)
			if r.Index() != lastIndex {
				lastIndex, lastNew = r.Index(), time.Now()
			}
			if goal := target.Load(); goal > 0 && int64(r.StoreIndex()) >= goal {
				done <- nil
				return
			} else if goal > 0 && time.Since(lastNew) > stallAfter {
				done <- fmt.Errorf("the reader has read every entry up to raft index %d, and its store is at revision %d, short of the member's %d", r.Index(), r.StoreIndex(), goal)
				return
			}
			select {
			case <-ctx.Done():
				done <- fmt.Errorf("the reader is at revision %d (index %d), short of %d: %v", r.StoreIndex(), r.Index(), target.Load(), ctx.Err())
				return
			case <-time.After(cfg.every):
			}
		}
	}()

	start := time.Now()
	stop := make(chan struct{})
	zooErr := make(chan error, 1)
	go func() { zooErr <- zoo(ctx, t, cli, stop, watch.rev.Load, out.work) }()
	writing := make(chan struct{})
	midErr := make(chan error, 1)
	if cfg.midway != nil {
		go func() {
			err := cfg.midway(ctx, writing)
			if err != nil {
				cancel()
			}
			midErr <- err
		}()
	} else {
		midErr <- nil
	}
	err := writersV3(ctx, t, cli, cfg.writers, cfg.ops, out.work)
	close(writing)
	if merr := <-midErr; merr != nil {
		err = merr
	}
	close(stop)
	if zerr := <-zooErr; err == nil {
		err = zerr
	}
	if err != nil {
		cancel()
		<-done
		t.Fatal(err)
	}
	// Nothing writes any more: the member's revision is the last.
	resp, err := cli.Get(ctx, "", clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	out.finalRev = resp.Header.Revision
	target.Store(out.finalRev)
	if err := watch.waitFor(ctx, wcli, out.finalRev); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out.duration = time.Since(start)
	watch.mu.Lock()
	out.watched = append([]Event(nil), watch.events...)
	watch.mu.Unlock()

	// The reader's keyspace is the member's, key by key.
	if got := int64(r.StoreIndex()); got != out.finalRev {
		t.Errorf("the reader's v3 store is at revision %d, the member's at %d", got, out.finalRev)
	}
	theirs := map[string]kv{}
	for _, k := range resp.Kvs {
		theirs[string(k.Key)] = kv{create: k.CreateRevision, mod: k.ModRevision, version: k.Version, lease: k.Lease, value: k.Value}
	}
	ours := map[string]kv{}
	for k, v := range r.mvcc.keys {
		ours[k] = *v
	}
	if !reflect.DeepEqual(ours, theirs) {
		n := 0
		for k, v := range theirs {
			if o, ok := ours[k]; !ok || !reflect.DeepEqual(o, v) {
				if n++; n <= 5 {
					t.Errorf("key %q: the member has create %d mod %d version %d lease %d, the reader %+v (present: %v)", k, v.create, v.mod, v.version, v.lease, o, ok)
				}
			}
		}
		t.Errorf("the reader's keyspace (%d keys) differs from the member's (%d keys)", len(ours), len(theirs))
	}
	return out
}

// checkV3 compares the reader's events with the watch's, checks what the
// reader decoded of each pod against an independent decoding of the
// watch's value, and logs the run.
func checkV3(t *testing.T, out *runV3, wantRollover, wantSnapshot bool) {
	t.Helper()
	w := out.work
	if len(out.watched) == 0 {
		t.Fatal("the watch saw no event")
	}
	if problems := compareEvents(out.watched, out.events); len(problems) > 0 {
		t.Errorf("the reader's %d events differ from the watch's %d in %d ways; the first:\n%s", len(out.events), len(out.watched), len(problems), strings.Join(problems[:min(10, len(problems))], "\n"))
	}
	// Event by event, in order: the same event, at the same revision.
	matched := 0
	for i := range min(len(out.events), len(out.watched)) {
		g, want := out.events[i], out.watched[i]
		if g.Type != want.Type || g.Key != want.Key || g.Value != want.Value || g.StoreIndex != want.StoreIndex {
			break
		}
		matched++
	}
	if matched != len(out.watched) || len(out.events) != len(out.watched) {
		t.Errorf("the reader's events match the watch's in order for the first %d of %d (the reader emitted %d)", matched, len(out.watched), len(out.events))
	}
	// What the reader says of each pod, against client-go's decoder.
	decoder := scheme.Codecs.UniversalDeserializer()
	bad := 0
	for _, e := range out.events {
		obj, _, err := decoder.Decode([]byte(e.Value), nil, nil)
		pod, ok := obj.(*corev1.Pod)
		if err != nil || !ok {
			t.Fatalf("client-go cannot decode the value of %v: %v", e, err)
		}
		if e.DecodeError != "" || e.Namespace != pod.Namespace || e.Name != pod.Name || e.NodeName != pod.Spec.NodeName || e.Phase != pod.Status.Phase ||
			e.Key != Prefix+pod.Namespace+"/"+pod.Name {
			if bad++; bad <= 3 {
				t.Errorf("%v: the reader says %s/%s on %q, %s (%q); the value says %s/%s on %q, %s", e, e.Namespace, e.Name, e.NodeName, e.Phase, e.DecodeError,
					pod.Namespace, pod.Name, pod.Spec.NodeName, pod.Status.Phase)
			}
		}
	}
	var types [3]int
	sameRev := 0
	for i, e := range out.watched {
		types[map[EventType]int{Created: 0, Updated: 1, Deleted: 2}[e.Type]]++
		if i > 0 && out.watched[i-1].StoreIndex == e.StoreIndex {
			sameRev++
		}
	}
	t.Logf("%s; %d pod events in the watch (%d created, %d updated, %d deleted; %d at the revision of the one before), %d from the reader, %d matched in order, up to raft index %d, revision %d",
		w, len(out.watched), types[0], types[1], types[2], sameRev, len(out.events), matched, out.reader.Index(), out.reader.StoreIndex())
	if w.failed.Load() == 0 {
		t.Errorf("no compare failed")
	}

	checkRolloversAndSnapshots(t, out.dataDir, wantRollover, wantSnapshot)

	total, polls := out.reader.Total()
	var end Cost
	n := 0
	for i := len(out.costs) - 1; i >= 0 && n < 10; i-- {
		if out.costs[i].Committed > 0 {
			end.add(out.costs[i])
			n++
		}
	}
	t.Logf("%d polls in %.1f s: %.1f MB read, %.0f ms of wall time, %.0f ms of the reading thread's CPU (%.1f µs per pod event); %s",
		polls, out.duration.Seconds(), mb(total.Bytes), ms(total.Wall), ms(total.CPU), float64(total.CPU.Microseconds())/float64(max(1, len(out.events))), resumes(total))
	if n > 0 {
		t.Logf("the last %d polls that found entries: %.0f KB, %.2f ms wall, %.2f ms CPU, %.1f segments, %.0f entries decoded, %.0f committed, per poll",
			n, kb(end.Bytes)/float64(n), ms(end.Wall)/float64(n), ms(end.CPU)/float64(n), float64(end.Segments)/float64(n), float64(end.Entries)/float64(n), float64(end.Committed)/float64(n))
	}

	// A reader that starts after the run and reads everything at once
	// emits the same events.
	again := NewReaderV3(out.dataDir)
	evs, cost, err := again.Poll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(evs, out.events) {
		t.Errorf("read in one poll after the run, the WAL gives %d events, polled during it %d", len(evs), len(out.events))
	}
	t.Logf("one poll of the whole WAL after the run: %d segments, %.1f MB, %d entries, %.0f ms (%.0f ms of the thread's CPU)",
		cost.Segments, mb(cost.Bytes), cost.Entries, ms(cost.Wall), ms(cost.CPU))
}

// TestFollowsMemberV3 follows an embedded member through about 7 000 pod
// Txns from 6 writers, written as kube-apiserver writes them, and the
// zoo's other requests, with a snapshot every 500 entries and WAL
// segments of 256 KiB, and checks the reader's events against a v3
// watch's; then plants faults.
func TestFollowsMemberV3(t *testing.T) {
	m := startMember(t, 500, 256<<10)
	out := followV3(t, m.etcd.Clients[0].Addr().String(), m.dataDir, v3Config{writers: 6, ops: 1000, every: 20 * time.Millisecond})
	m.close()
	checkV3(t, out, true, true)
	if n := len(out.watched); n <= 5000 {
		t.Errorf("only %d pod writes, want more than 5 000", n)
	}
	faultsV3(t, out)
}

// TestFollowsMemberV3Long is the same over more than 40 000 pod writes,
// with etcd's own segment size (64 MB). It runs only with
// KUBE_REWIND_WAL_LONG=1.
func TestFollowsMemberV3Long(t *testing.T) {
	if os.Getenv("KUBE_REWIND_WAL_LONG") != "1" {
		t.Skip("set KUBE_REWIND_WAL_LONG=1 to run")
	}
	m := startMember(t, 500, wal.SegmentSizeBytes)
	out := followV3(t, m.etcd.Clients[0].Addr().String(), m.dataDir, v3Config{writers: 12, ops: 4000, every: 100 * time.Millisecond})
	m.close()
	checkV3(t, out, false, true)
	if n := len(out.watched); n <= 40000 {
		t.Errorf("only %d pod writes, want more than 40 000", n)
	}
}

// faultsV3 plants faults in the reader, in copies of a run's WAL, or in
// what the reader emitted, and checks that the comparison with the watch
// catches each.
func faultsV3(t *testing.T, out *runV3) {
	t.Run("failed compare counted", func(t *testing.T) {
		r := NewReaderV3(out.dataDir)
		r.mvcc.countFailed = true
		evs, _, err := r.Poll()
		if err != nil {
			t.Fatal(err)
		}
		problems := compareEvents(out.watched, evs)
		caught := 0
		for _, p := range problems {
			if strings.HasPrefix(p, "extra event at raft index ") || strings.Contains(p, " repeats the write ") {
				caught++
			}
		}
		planted := len(evs) - len(out.events)
		if want := int(out.work.planted.Load()); planted != want || caught != want {
			t.Errorf("counting failed compares as writes, the reader emitted %d more events and the check found %d of them; the writers saw %d failed compares with a pod write", planted, caught, want)
		}
		if len(problems) > 0 {
			t.Logf("the check reports %d problems for %d planted events, the first: %s", len(problems), planted, problems[0])
		}
	})
	t.Run("torn tail", func(t *testing.T) { tornTailV3(t, out) })
	t.Run("event lost at a segment boundary", func(t *testing.T) {
		segs, err := segmentNames(walDir(out.dataDir))
		if err != nil {
			t.Fatal(err)
		}
		drop := -1
		for _, s := range segs[1:] {
			for i, e := range out.events {
				if e.RaftIndex >= s.first {
					drop = i
					break
				}
			}
			if drop >= 0 {
				break
			}
		}
		if drop <= 0 || drop+1 >= len(out.events) {
			t.Fatal("no event after a segment boundary")
		}
		lost := out.events[drop]
		evs := append(append([]Event(nil), out.events[:drop]...), out.events[drop+1:]...)
		problems := compareEvents(out.watched, evs)
		want := fmt.Sprintf("missing the write at store index %d (%s %s), between raft index %d and raft index %d",
			lost.StoreIndex, lost.Type, lost.Key, out.events[drop-1].RaftIndex, out.events[drop+1].RaftIndex)
		if len(problems) != 1 || problems[0] != want {
			t.Fatalf("dropping %v, the check reports %q, want only %q", lost, problems, want)
		}
		t.Logf("dropped %v, the first pod event after the start of a segment; the check reports: %s", lost, problems[0])
	})
}

// tornTailV3 tears a successful Put of a pod in the WAL, as a member
// that stops while writing it leaves it, and checks that a reader returns
// exactly the events before that entry, and no error. Two ways: the file
// truncated in the middle of the value (the last Put's); and the sectors
// from one inside the value on zeroed to the end of the file, the
// segment's preallocated space (the last Put whose value crosses a
// sector boundary: a disk writes whole sectors, and etcd's decoder takes
// a record with a zeroed sector for a torn one, where a record zeroed from
// the middle of a sector is a CRC mismatch).
func tornTailV3(t *testing.T, out *runV3) {
	const sector = 512 // etcd's minSectorSize
	for _, zero := range []bool{false, true} {
		dir := copyWAL(t, out.dataDir)
		segs, err := segmentNames(walDir(dir))
		if err != nil {
			t.Fatal(err)
		}
		files := make([][]byte, len(segs))
		for i, s := range segs {
			if files[i], err = os.ReadFile(filepath.Join(walDir(dir), s.name)); err != nil {
				t.Fatal(err)
			}
		}
		// The Put to tear, the segment that holds its value (each value
		// is written once) and where to cut it.
		var torn Event
		seg, cut := -1, -1
		for i := len(out.events) - 1; i >= 0 && cut < 0; i-- {
			e := out.events[i]
			if e.Type == Deleted {
				continue
			}
			for j := len(files) - 1; j >= 0; j-- {
				at := bytes.Index(files[j], []byte(e.Value))
				if at < 0 {
					continue
				}
				switch boundary := (at/sector + 1) * sector; {
				case !zero:
					cut = at + len(e.Value)/2
				case boundary < at+len(e.Value):
					cut = boundary
				}
				torn, seg = e, j
				break
			}
		}
		if cut < 0 {
			t.Fatalf("no Put of a pod to tear (zeroed: %v)", zero)
		}
		// Later segments go: the member stopped while writing this one.
		for _, s := range segs[seg+1:] {
			if err := os.Remove(filepath.Join(walDir(dir), s.name)); err != nil {
				t.Fatal(err)
			}
		}
		name, data := filepath.Join(walDir(dir), segs[seg].name), files[seg]
		if zero {
			clear(data[cut:])
			err = os.WriteFile(name, data, 0o600)
		} else {
			err = os.Truncate(name, int64(cut))
		}
		if err != nil {
			t.Fatal(err)
		}
		r := NewReaderV3(dir)
		evs, _, err := r.Poll()
		if err != nil {
			t.Fatalf("reading a WAL torn in the Put of %v (zeroed: %v): %v", torn, zero, err)
		}
		want := sort.Search(len(out.events), func(i int) bool { return out.events[i].RaftIndex >= torn.RaftIndex })
		if !reflect.DeepEqual(evs, out.events[:want]) {
			t.Fatalf("reading a WAL torn in the Put of %v (zeroed: %v): %d events, want the %d before it", torn, zero, len(evs), want)
		}
		if r.Index() >= torn.RaftIndex {
			t.Errorf("torn, the WAL still gave entries up to %d, past the torn one at %d", r.Index(), torn.RaftIndex)
		}
		t.Logf("torn in the value of %v, at byte %d of %s (zeroed from there: %v): %d of %d events, up to raft index %d, no error",
			torn, cut, filepath.Base(name), zero, len(evs), len(out.events), r.Index())
	}
}

// stallAfter is how long a reader short of the member's revision may read
// nothing new before the test calls it diverged: generous, for a loaded
// machine, where the member itself may write nothing for seconds.
const stallAfter = 30 * time.Second
