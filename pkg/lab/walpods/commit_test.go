package walpods

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	pb "go.etcd.io/etcd/api/v3/etcdserverpb"
	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/wal"
	"go.uber.org/zap"
)

// TestOnlyCommittedEntries writes a WAL with etcd's own package, entries
// first and their commit after, as a member does, and checks that the
// reader passes on no entry past the hard state's commit index, decodes
// both forms of a v2 request, and drops a compare-and-swap the store
// refuses.
func TestOnlyCommittedEntries(t *testing.T) {
	dataDir := t.TempDir()
	dir := filepath.Join(dataDir, "member", "wal")
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	w, err := wal.Create(zap.NewNop(), dir, []byte("walpods"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()

	no := false
	key := "/1" + Prefix + "a"
	v1, v2, v3 := podJSON("a", 1, "Pending"), podJSON("a", 2, "Running"), podJSON("a", 3, "Running")
	entry := func(index uint64, r pb.Request, wrapped bool) raftpb.Entry {
		var data []byte
		var err error
		if wrapped {
			data, err = (&pb.InternalRaftRequest{V2: &r}).Marshal()
		} else {
			data, err = r.Marshal()
		}
		if err != nil {
			t.Fatal(err)
		}
		return raftpb.Entry{Term: 1, Index: index, Type: raftpb.EntryNormal, Data: data}
	}
	ents := []raftpb.Entry{
		// A create, store index 1.
		entry(1, pb.Request{Method: "PUT", Path: key, Val: v1, PrevExist: &no}, false),
		// A compare-and-swap on index 1, in an InternalRaftRequest: store
		// index 2.
		entry(2, pb.Request{Method: "PUT", Path: key, Val: v2, PrevIndex: 1}, true),
		// A compare-and-swap on index 1 again: refused.
		entry(3, pb.Request{Method: "PUT", Path: key, Val: v3, PrevIndex: 1}, false),
		// A delete, store index 3.
		entry(4, pb.Request{Method: "DELETE", Path: key}, false),
	}
	if err := w.Save(raftpb.HardState{Term: 1, Commit: 2}, ents); err != nil {
		t.Fatal(err)
	}

	r := NewReader(dataDir)
	evs, _, err := r.Poll()
	if err != nil {
		t.Fatal(err)
	}
	want := []Event{
		{Type: Created, Key: Prefix + "a", Value: v1, RaftIndex: 1, StoreIndex: 1},
		{Type: Updated, Key: Prefix + "a", Value: v2, RaftIndex: 2, StoreIndex: 2},
	}
	if !reflect.DeepEqual(withoutV2(t, evs), want) || r.Index() != 2 {
		t.Fatalf("with entries 1 to 4 written and 2 committed: events %v up to %d, want %v up to 2", evs, r.Index(), want)
	}

	// The commit of 3 and 4 comes with entry 5, which stays uncommitted.
	// (A save that only moves the commit index is not flushed to the
	// file: etcd's WAL syncs only for new entries, a new vote or term.)
	ents = append(ents, entry(5, pb.Request{Method: "PUT", Path: key, Val: v3, PrevExist: &no}, false))
	if err := w.Save(raftpb.HardState{Term: 1, Commit: 4}, ents[4:]); err != nil {
		t.Fatal(err)
	}
	evs, _, err = r.Poll()
	if err != nil {
		t.Fatal(err)
	}
	want = []Event{{Type: Deleted, Key: Prefix + "a", Value: v2, RaftIndex: 4, StoreIndex: 3}}
	if !reflect.DeepEqual(withoutV2(t, evs), want) || r.Index() != 4 || r.StoreIndex() != 3 {
		t.Fatalf("with 5 written and 4 committed: events %v up to %d (store index %d), want %v up to 4 (store index 3)", evs, r.Index(), r.StoreIndex(), want)
	}

	// The commit of 5 alone stays in the WAL's buffer, unseen, until the
	// next save with entries.
	if err := w.Save(raftpb.HardState{Term: 1, Commit: 5}, nil); err != nil {
		t.Fatal(err)
	}
	if evs, _, err = r.Poll(); err != nil || len(evs) > 0 || r.Index() != 4 {
		t.Fatalf("with only the commit of 5 saved: events %v up to %d, %v; want none, still at 4", evs, r.Index(), err)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	evs, _, err = r.Poll()
	if err != nil {
		t.Fatal(err)
	}
	want = []Event{{Type: Created, Key: Prefix + "a", Value: v3, RaftIndex: 5, StoreIndex: 4}}
	if !reflect.DeepEqual(withoutV2(t, evs), want) {
		t.Fatalf("with the commit of 5 flushed: events %v, want %v", evs, want)
	}

	// Counting refused compare-and-swaps, a fresh reader reports entry 3.
	f := NewReader(dataDir)
	f.apply.countFailed = true
	evs, _, err = f.Poll()
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 5 || evs[2].RaftIndex != 3 || evs[2].Value != v3 {
		t.Fatalf("counting refused compare-and-swaps: %v, want entry 3 among 5 events", evs)
	}
}

// withoutV2 returns events without the v2 store's own event of each,
// having checked that each v2 write carries it, at its store index.
func withoutV2(t *testing.T, evs []Event) []Event {
	t.Helper()
	out := make([]Event, len(evs))
	for i, e := range evs {
		if e.V2 == nil || e.V2.Index() != e.StoreIndex {
			t.Errorf("%v: the store's own event %+v, want one at store index %d", e, e.V2, e.StoreIndex)
		}
		e.V2 = nil
		out[i] = e
	}
	return out
}
