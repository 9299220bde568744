package walpods

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/tools"
	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/wal"
	"go.etcd.io/etcd/server/v3/wal/walpb"
	"go.uber.org/zap"
	corev1 "k8s.io/api/core/v1"
)

// restarted is what a run saw of its member's restart.
type restarted struct {
	// term and commit are the member's raft term and commit index when
	// it stopped.
	term, commit uint64
	// down is how long the member was down: its close, the crash left
	// in its log, and its start.
	down time.Duration
	// crash is what the crash left in the log, and crashIndex the index
	// of its logged entry.
	crash      *crash
	crashIndex uint64
}

// restartPause is how long a restarted member stays down: longer than a
// v2 writer's client tries to reach it (go-etcd's retries, as tools'
// checkRetry bounds them: three attempts in some 75 ms), so that the
// writers' requests fail, and the reader polls a log nobody writes.
const restartPause = time.Second

// restartMidway waits until the member has committed entry at, while the
// writers write, then restarts it as a member that crashed comes back:
// it closes it, leaves c in its log (crashTail), and starts it again on
// the same data directory and port after restartPause, telling the
// writers through down (nil if they need not know). Closing an embedded
// etcd lets the requests it has begun finish and refuses the others,
// which its clients see as network errors. It fails if the writes end
// first: the restart must fall in the middle of them.
func restartMidway(ctx context.Context, m *member, at uint64, c *crash, down *outage, writing <-chan struct{}) (*restarted, error) {
	for m.etcd.Server.CommittedIndex() < at {
		select {
		case <-writing:
			return nil, fmt.Errorf("the writes ended at commit index %d, before the restart planned at %d", m.etcd.Server.CommittedIndex(), at)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
	start := time.Now()
	old := m.etcd
	addr := old.Clients[0].Addr().String()
	down.begin()
	// The connections the v2 writers' transport keeps idle would hold
	// the member's close up (see tools.CloseIdleConnections).
	tools.CloseIdleConnections()
	m.close()
	rs := &restarted{term: old.Server.Term(), commit: old.Server.CommittedIndex(), crash: c}
	var err error
	if rs.crashIndex, err = crashTail(m.dataDir, c.logged, c.torn); err != nil {
		return nil, fmt.Errorf("leaving a crash in the member's log: %v", err)
	}
	time.Sleep(restartPause)
	if err := m.launch(addr); err != nil {
		return nil, fmt.Errorf("starting the member again: %v", err)
	}
	rs.down = time.Since(start)
	down.end()
	return rs, nil
}

// crash is what a crash in the middle of a write leaves of a member's last
// requests (crashTail): logged, one it had written to its log whole but
// not committed, and torn, one it was writing; both raft entries' data.
type crash struct {
	logged, torn []byte
	// The pod write of logged, which the member makes once it is back,
	// and the key torn writes, which it never does.
	key, value, tornKey string
}

// crashV2 is a crash of a member the v2 API writes to: both requests are
// v2 sets of pods, the torn one's JSON padded to cross sector boundaries.
func crashV2() *crash {
	c := &crash{key: Prefix + "crash-logged", value: podJSON("crash-logged", 1<<30, "Pending"), tornKey: Prefix + "crash-torn"}
	c.logged = marshalled(&pb.Request{ID: 1<<62 + 1, Method: http.MethodPut, Path: etcdserver.StoreKeysPrefix + c.key, Val: c.value})
	torn := podJSON("crash-torn", 1<<30+1, "Pending") + strings.Repeat(" ", 2048)
	c.torn = marshalled(&pb.Request{ID: 1<<62 + 2, Method: http.MethodPut, Path: etcdserver.StoreKeysPrefix + c.tornKey, Val: torn})
	return c
}

// crashV3 is a crash of a member the v3 API writes to: both requests are
// Puts of pods, the torn one's name long enough to cross sector
// boundaries.
func crashV3(t testing.TB) *crash {
	c := &crash{key: Prefix + "crash/logged", tornKey: Prefix + "crash/torn"}
	c.value = string(encodePod(t, "crash", "logged", 1<<30, corev1.PodPending))
	c.logged = marshalled(&pb.InternalRaftRequest{Header: &pb.RequestHeader{ID: 1<<62 + 1}, Put: &pb.PutRequest{Key: []byte(c.key), Value: []byte(c.value)}})
	torn := encodePod(t, "crash", strings.Repeat("torn", 512), 1<<30+1, corev1.PodPending)
	c.torn = marshalled(&pb.InternalRaftRequest{Header: &pb.RequestHeader{ID: 1<<62 + 2}, Put: &pb.PutRequest{Key: []byte(c.tornKey), Value: torn}})
	return c
}

func marshalled(m interface{ Marshal() ([]byte, error) }) []byte {
	b, err := m.Marshal()
	if err != nil {
		panic(err)
	}
	return b
}

// crashTail leaves in the WAL of a stopped member what a crash in the
// middle of a write leaves: after its last entry, an entry whose data is
// logged, written whole, with no commit after it, and one whose data is
// torn, its record zeroed from a sector boundary inside that data to the
// end of the file, as a disk that wrote only its first sectors leaves it
// (etcd's decoder takes a record with a zeroed sector for a torn one).
// Both are of the hard state's term, as the leader writes them. A member
// that starts on this log repairs it (wal.Repair: it truncates the
// segment before the torn record, and keeps a copy as .broken), then
// commits the logged entry with the first of its new term. It returns
// the logged entry's index.
func crashTail(dataDir string, logged, torn []byte) (uint64, error) {
	dir := walDir(dataDir)
	before, err := segmentNames(dir)
	if err != nil {
		return 0, err
	}
	w, err := wal.Open(zap.NewNop(), dir, walpb.Snapshot{})
	if err != nil {
		return 0, err
	}
	_, st, ents, err := w.ReadAll()
	if err != nil {
		w.Close()
		return 0, err
	}
	last := ents[len(ents)-1].Index
	err = w.Save(st, []raftpb.Entry{
		{Term: st.Term, Index: last + 1, Type: raftpb.EntryNormal, Data: logged},
		{Term: st.Term, Index: last + 2, Type: raftpb.EntryNormal, Data: torn},
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	// A save that filled the segment began the next one: the crash came
	// before that.
	after, err := segmentNames(dir)
	if err != nil {
		return 0, err
	}
	for _, s := range after[len(before):] {
		if err := os.Remove(filepath.Join(dir, s.name)); err != nil {
			return 0, err
		}
	}
	tail := filepath.Join(dir, before[len(before)-1].name)
	data, err := os.ReadFile(tail)
	if err != nil {
		return 0, err
	}
	at := bytes.LastIndex(data, torn)
	if at < 0 {
		return 0, fmt.Errorf("the torn entry is not in %s", tail)
	}
	const sector = 512 // etcd's minSectorSize
	cut := (at/sector + 1) * sector
	if cut >= at+len(torn) {
		return 0, fmt.Errorf("the torn entry's %d bytes at %d cross no sector boundary", len(torn), at)
	}
	clear(data[cut:])
	if err := os.WriteFile(tail, data, 0o600); err != nil {
		return 0, err
	}
	return last + 1, nil
}

// TestFollowsMemberRestart follows a member that is stopped in the middle
// of the writes, with requests on their way, as a crash in the middle of
// a write would stop it (restartMidway, crashTail), and started again on
// the same data directory and port, where the writers carry on: some
// 8 000 requests from 8 writers, 3 200 of them successful pod writes,
// with a snapshot every 500 entries and WAL segments of 256 KiB. The
// reader polls throughout, the member's downtime included. Its events
// must be the writes the member made in both lives, each once and in
// order (those it acknowledged, and the one the crash left logged, which
// it made once back), and its store the member's (index and pods), as in
// TestFollowsMember; the WAL must show the restart (a repaired tail, and
// entries of a later term after those of the first life), and the reader
// must have emitted events from both lives. Then two readers that
// mishandle the restart are planted, and the check must catch each.
func TestFollowsMemberRestart(t *testing.T) {
	out := followRun(t, runConfig{pods: 1024, writers: 8, snapshotCount: 500, segmentBytes: 256 << 10, every: 20 * time.Millisecond, restartAt: 3000})
	checkRun(t, out, true)
	if out.work.again == 0 {
		t.Errorf("no request failed for the restart: the member did not stop in the middle of the writes")
	}
	t.Logf("%d requests were sent again after the restart", out.work.again)
	lifeEnd := checkRestart(t, out.dataDir, out.restart, out.events, out.reader)
	restartFaults(t, out.dataDir, NewReader, out.work.writes, out.events, lifeEnd)
}

// TestFollowsMemberV3Restart is TestFollowsMemberRestart for the v3
// reader: some 3 300 pod Txns from 4 writers and the zoo's requests,
// whose v3 client waits for the member to come back, and the reader's
// events compared with a v3 watch's that the client resumes after the
// restart where it was, and its keyspace with the member's.
func TestFollowsMemberV3Restart(t *testing.T) {
	m := startMemberAt(t, restartPort(t), 500, 256<<10)
	var rs *restarted
	c := crashV3(t)
	cfg := v3Config{writers: 4, ops: 800, every: 20 * time.Millisecond, midway: func(ctx context.Context, writing <-chan struct{}) error {
		var err error
		rs, err = restartMidway(ctx, m, 1500, c, nil, writing)
		return err
	}}
	out := followV3(t, m.etcd.Clients[0].Addr().String(), m.dataDir, cfg)
	m.close()
	checkV3(t, out, true, true)
	lifeEnd := checkRestart(t, out.dataDir, rs, out.events, out.reader)
	restartFaults(t, out.dataDir, NewReaderV3, out.watched, out.events, lifeEnd)
}

// checkRestart checks that the member's WAL shows its restart: after the
// entries it wrote before it stopped, every one it committed among them
// and the one the crash left logged, come entries of a later term, and
// the torn record is gone (the member repaired the segment). It checks
// that the reader emitted events of both lives, the logged write's at its
// index, nothing of the torn one, and read into the second life; it
// returns the index of the first life's last entry.
func checkRestart(t *testing.T, dataDir string, rs *restarted, events []Event, r *Reader) uint64 {
	t.Helper()
	if rs == nil {
		t.Fatal("the member was not restarted")
	}
	w, err := wal.OpenForRead(zap.NewNop(), walDir(dataDir), walpb.Snapshot{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, ents, err := w.ReadAll()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	second := sort.Search(len(ents), func(i int) bool { return ents[i].Term > rs.term })
	if second == len(ents) {
		t.Fatalf("every entry of the WAL (up to %d) is of the term the member stopped in, %d, or an earlier one: it wrote nothing after its restart", ents[len(ents)-1].Index, rs.term)
	}
	lifeEnd := ents[second].Index - 1
	if lifeEnd < rs.commit {
		t.Errorf("the member had committed entry %d when it stopped, and its WAL holds its first life's entries up to %d only", rs.commit, lifeEnd)
	}
	first := sort.Search(len(events), func(i int) bool { return events[i].RaftIndex > lifeEnd })
	if first == 0 || first == len(events) {
		t.Errorf("the reader emitted %d events of the member's first life (up to raft index %d) and %d of its second; want some of each", first, lifeEnd, len(events)-first)
	}
	if r.Index() <= lifeEnd || r.wal.term <= rs.term {
		t.Errorf("the reader read up to raft index %d, term %d: not into the member's second life (from index %d, after term %d)", r.Index(), r.wal.term, lifeEnd+1, rs.term)
	}
	// The crash: the member repaired the torn record, committed the
	// logged entry, and the reader reported its write at its index, once,
	// and nothing of the torn one.
	if lifeEnd != rs.crashIndex || rs.commit >= rs.crashIndex {
		t.Errorf("the member stopped at commit index %d, the crash left entry %d logged, and the WAL's first life ends at %d; want the logged entry uncommitted at the stop, and the last of the first life", rs.commit, rs.crashIndex, lifeEnd)
	}
	broken, _ := filepath.Glob(filepath.Join(walDir(dataDir), "*.wal.broken"))
	if len(broken) == 0 {
		t.Errorf("the member did not repair its WAL when it started again (no .broken copy of a segment)")
	}
	var crashed []Event
	for _, e := range events {
		if e.Key == rs.crash.key || e.Key == rs.crash.tornKey {
			crashed = append(crashed, e)
		}
	}
	if len(crashed) != 1 || crashed[0].Key != rs.crash.key || crashed[0].RaftIndex != rs.crashIndex || crashed[0].Value != rs.crash.value {
		t.Errorf("of the crash's writes the reader reported %v; want the logged one's only, at raft index %d", crashed, rs.crashIndex)
	}
	t.Logf("the member stopped in term %d at commit index %d; the crash left entry %d logged and entry %d torn; it was down %.1f s, repaired its WAL (%d .broken copy) and came back in term %d, from raft index %d; the reader emitted %d events of its first life and %d of its second, and read up to raft index %d (term %d)",
		rs.term, rs.commit, rs.crashIndex, rs.crashIndex+1, rs.down.Seconds(), len(broken), ents[second].Term, lifeEnd+1, first, len(events)-first, r.Index(), r.wal.term)
	return lifeEnd
}

// restartFaults plants two faults of a reader that follows a member
// through its restart, and checks that comparing the events with want
// (the writes the member acknowledged, or a watch's events) catches each:
// a reader that reads the log again from its first entry once the member
// is back, and one that skips the entries the member wrote first after it
// came back. events are what the reader emitted, lifeEnd the index of the
// first life's last entry.
func restartFaults(t *testing.T, dataDir string, newReader func(string) *Reader, want, events []Event, lifeEnd uint64) {
	firstLife := sort.Search(len(events), func(i int) bool { return events[i].RaftIndex > lifeEnd })
	if firstLife == 0 || firstLife == len(events) {
		t.Fatalf("%d events of the member's first life of %d: the faults need some of each life", firstLife, len(events))
	}
	t.Run("log read again from the start after the restart", func(t *testing.T) {
		// The events of the first life, as the reader emitted them, then
		// every event of the log again.
		all, _, err := newReader(dataDir).Poll()
		if err != nil {
			t.Fatal(err)
		}
		evs := append(append([]Event(nil), events[:firstLife]...), all...)
		problems := compareEvents(want, evs)
		e := events[0]
		wantFirst := fmt.Sprintf("event at raft index %d repeats the write at store index %d (%s %s)", e.RaftIndex, e.StoreIndex, e.Type, e.Key)
		repeats := 0
		for _, p := range problems {
			if strings.Contains(p, " repeats the write at store index ") {
				repeats++
			}
		}
		if len(problems) != firstLife || repeats != firstLife || problems[0] != wantFirst {
			t.Fatalf("emitting the %d events of the first life twice, the check reports %d problems (%d repeats), the first %q; want %d repeats, the first %q",
				firstLife, len(problems), repeats, problems[:min(1, len(problems))], firstLife, wantFirst)
		}
		t.Logf("a reader that reads the log again from its first entry once the member is back emits the %d events of its first life twice; the check reports %d problems, the first: %s",
			firstLife, len(problems), problems[0])
	})
	t.Run("entries after the restart skipped", func(t *testing.T) {
		// The entries from the first of the second life to the first pod
		// write in it.
		skipped := events[firstLife]
		r := newReader(dataDir)
		evs, err := pollDropping(r, func(index uint64) bool { return index > lifeEnd && index <= skipped.RaftIndex })
		if err != nil {
			t.Fatal(err)
		}
		problems := compareEvents(want, evs)
		// The check reports the skipped write missing, or, should the
		// faulty reader's store make the same write later, at another
		// store index.
		missing := fmt.Sprintf("missing the write at store index %d (%s %s), between ", skipped.StoreIndex, skipped.Type, skipped.Key)
		moved := fmt.Sprintf(" (%s %s) has store index ", skipped.Type, skipped.Key)
		acknowledged := fmt.Sprintf(", the member acknowledged %d", skipped.StoreIndex)
		found := ""
		for _, p := range problems {
			if strings.HasPrefix(p, missing) || strings.Contains(p, moved) && strings.HasSuffix(p, acknowledged) {
				found = p
				break
			}
		}
		if found == "" {
			t.Fatalf("skipping raft entries %d to %d, the check does not report %v missing; it reports %d problems, the first %q",
				lifeEnd+1, skipped.RaftIndex, skipped, len(problems), problems[:min(1, len(problems))])
		}
		t.Logf("a reader that skips raft entries %d to %d, the first the member wrote after its restart, emits %d events of %d and ends at store index %d; the check reports %d problems, among them: %s; the first: %s",
			lifeEnd+1, skipped.RaftIndex, len(evs), len(events), r.StoreIndex(), len(problems), found, problems[0])
	})
}

// pollDropping is a planted fault: a poll that drops the entries drop
// names, as a reader that skipped them would, and applies the others as
// Poll does.
func pollDropping(r *Reader, drop func(index uint64) bool) ([]Event, error) {
	ents, _, err := r.wal.read()
	if err != nil {
		return nil, err
	}
	var out []Event
	for _, e := range ents {
		if drop(e.Index) {
			continue
		}
		var evs []Event
		if r.mvcc != nil {
			evs, err = r.mvcc.apply(e)
		} else {
			evs, err = r.apply.apply(e)
		}
		if err != nil {
			return out, err
		}
		out = append(out, evs...)
	}
	return out, nil
}
