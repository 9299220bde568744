package walpods

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/etcd/raft/v3/raftpb"
)

// A read that fails as a read of a record the member is still writing
// does (CI saw "proto: Record: illegal tag 0 (wire type 0)", which etcd's
// decoder returns as it is) is tried once more, and the entries come;
// a failure that stays is reported after the second try.
func TestAReadOfARecordBeingWrittenIsTriedAgain(t *testing.T) {
	written := []raftpb.Entry{{Index: 1, Term: 2}, {Index: 2, Term: 2}}
	midWrite := errors.New("proto: Record: illegal tag 0 (wire type 0)")
	calls := 0
	r := &walReader{dir: oneSegment(t)}
	r.readAllFunc = func() ([]raftpb.Entry, raftpb.HardState, error) {
		calls++
		if calls == 1 {
			return nil, raftpb.HardState{}, midWrite
		}
		return written, raftpb.HardState{Term: 2, Commit: 2}, nil
	}
	ents, _, err := r.read()
	if err != nil || len(ents) != 2 || r.index != 2 {
		t.Fatalf("after a read that failed mid-write: %d entries, index %d, %v; want both entries, index 2, no error", len(ents), r.index, err)
	}

	calls = 0
	r = &walReader{dir: oneSegment(t)}
	r.readAllFunc = func() ([]raftpb.Entry, raftpb.HardState, error) {
		calls++
		return nil, raftpb.HardState{}, midWrite
	}
	if _, _, err := r.read(); err == nil || !strings.Contains(err.Error(), "illegal tag 0") || calls != 2 {
		t.Errorf("a failure that stays: %v after %d reads; want it reported after 2", err, calls)
	}
}

// oneSegment is a WAL directory whose one segment's name says it holds
// the log from its start; what the segment holds, the test's read says.
func oneSegment(t *testing.T) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "0000000000000000-0000000000000000.wal"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
