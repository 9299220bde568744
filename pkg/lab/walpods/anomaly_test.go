package walpods

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/wal"
	"go.uber.org/zap"
)

// handLog is a WAL written by a test with etcd's WAL package, each save
// committing what it writes, as a member alone does.
type handLog struct {
	t    *testing.T
	dir  string
	w    *wal.WAL
	next uint64
}

// newHandLog creates a WAL whose segments are cut at segmentBytes.
func newHandLog(t *testing.T, segmentBytes int64) *handLog {
	t.Helper()
	old := wal.SegmentSizeBytes
	wal.SegmentSizeBytes = segmentBytes
	t.Cleanup(func() { wal.SegmentSizeBytes = old })
	dir := walDir(t.TempDir())
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	w, err := wal.Create(zap.NewNop(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return &handLog{t: t, dir: dir, w: w, next: 1}
}

// save writes n entries of size bytes each, committed.
func (l *handLog) save(n, size int) {
	l.t.Helper()
	var ents []raftpb.Entry
	for i := 0; i < n; i++ {
		data := make([]byte, size)
		copy(data, fmt.Sprintf("entry %d", l.next))
		ents = append(ents, raftpb.Entry{Index: l.next, Term: 1, Type: raftpb.EntryNormal, Data: data})
		l.next++
	}
	if err := l.w.Save(raftpb.HardState{Term: 1, Commit: l.next - 1}, ents); err != nil {
		l.t.Fatal(err)
	}
}

// saveHardState writes ents as they are, with a hard state of term and
// commit: a log in which the test, not a counter, chooses each entry's
// index and term, so that a later term can replace an entry.
func (l *handLog) saveHardState(commit, term uint64, ents ...raftpb.Entry) {
	l.t.Helper()
	if err := l.w.Save(raftpb.HardState{Term: term, Commit: commit}, ents); err != nil {
		l.t.Fatal(err)
	}
}

// termEntry is entry index of term; with named, its data names both, so
// that entries that differ only in term print apart; without, it is the
// empty entry a new leader commits, which the Reader applies as nothing.
func termEntry(index, term uint64, named bool) raftpb.Entry {
	e := raftpb.Entry{Index: index, Term: term, Type: raftpb.EntryNormal}
	if named {
		e.Data = []byte(fmt.Sprintf("entry %d of term %d", index, term))
	}
	return e
}

// saveEach saves n entries of size bytes one at a time: etcd's WAL cuts a
// new segment at a save that finds the segment full.
func (l *handLog) saveEach(n, size int) {
	l.t.Helper()
	for i := 0; i < n; i++ {
		l.save(1, size)
	}
}

func (l *handLog) reader() *walReader { return &walReader{dir: l.dir, lg: zap.NewNop()} }

// readerInTheFirstOfThree writes ten entries, reads them, then writes
// forty more, and returns the reader, still in the log's first segment,
// with the log's segments, at least three.
func (l *handLog) readerInTheFirstOfThree() (*walReader, []segment) {
	l.t.Helper()
	l.saveEach(10, 1000)
	r := l.reader()
	if _, _, err := r.read(); err != nil {
		l.t.Fatal(err)
	}
	l.saveEach(40, 1000)
	segs, err := segmentNames(l.dir)
	if err != nil || len(segs) < 3 || r.at.seg.name != segs[0].name {
		l.t.Fatalf("%d segments, %v, the reader in %s; want at least 3, the reader in the first", len(segs), err, r.at.seg.name)
	}
	return r, segs
}

// A read that goes on meets, in a log written by hand, what a member
// leaves only when something went wrong, and in each case goes back to
// etcd's ReadAll, whose verdict the poll returns: a record whose length
// word is written and whose data is still zeros at the end of the log (a
// torn tail to ReadAll, no error, once the read that goes on has waited
// for it once); a segment whose first record does not carry on the CRC
// chain (ReadAll's CRC mismatch); a segment missing in the middle (etcd
// 3.5's ReadAll reads on into the one after it and finds the chain
// broken there too).
func TestAReadThatGoesOnFallsBackWhereTheLogIsNotAsExpected(t *testing.T) {
	t.Run("a record written as far as its length", func(t *testing.T) {
		l := newHandLog(t, 1<<20)
		l.save(3, 100)
		r := l.reader()
		if ents, _, err := r.read(); err != nil || len(ents) != 3 {
			t.Fatalf("the first read: %d entries, %v", len(ents), err)
		}
		start := r.at.off
		l.save(1, 2000)
		probe := l.reader()
		if _, _, err := probe.read(); err != nil {
			t.Fatal(err)
		}
		end := probe.at.off
		seg := filepath.Join(l.dir, r.at.seg.name)
		whole, err := os.ReadFile(seg)
		if err != nil {
			t.Fatal(err)
		}
		torn := append([]byte(nil), whole...)
		for i := start + 8; i < end; i++ {
			torn[i] = 0
		}
		if err := os.WriteFile(seg, torn, 0o600); err != nil {
			t.Fatal(err)
		}
		for i, wantBack := range []int{0, 1} {
			ents, cost, err := r.read()
			if err != nil || len(ents) > 0 || cost.FellBacks != wantBack {
				t.Fatalf("read %d of a record written as far as its length: %d entries, %d fallbacks, %v; want none, %d, no error", i+1, len(ents), cost.FellBacks, err, wantBack)
			}
		}
		if err := os.WriteFile(seg, whole, 0o600); err != nil {
			t.Fatal(err)
		}
		if ents, _, err := r.read(); err != nil || len(ents) != 1 || ents[0].Index != 4 {
			t.Fatalf("once the record is whole: %v, %v; want entry 4", ents, err)
		}
	})
	t.Run("a segment that does not carry on the chain", func(t *testing.T) {
		l := newHandLog(t, 16<<10)
		r, segs := l.readerInTheFirstOfThree()
		at := r.index
		// The segment after the reader's begins with its crc record:
		// type 4, then its CRC as a varint from the record's fourth
		// byte.
		next := filepath.Join(l.dir, segs[1].name)
		b, err := os.ReadFile(next)
		if err != nil {
			t.Fatal(err)
		}
		if b[8] != 0x08 || b[9] != 0x04 || b[10] != 0x10 {
			t.Fatalf("the segment begins % x, not a crc record", b[:12])
		}
		b[11] ^= 0x01
		if err := os.WriteFile(next, b, 0o600); err != nil {
			t.Fatal(err)
		}
		ents, cost, err := r.read()
		if err == nil || !errors.Is(err, wal.ErrCRCMismatch) || cost.FellBacks != 1 {
			t.Fatalf("across a segment whose chain is broken: %d entries, %d fallbacks, %v; want ReadAll's CRC mismatch", len(ents), cost.FellBacks, err)
		}
		if r.index != at {
			t.Errorf("the reader moved from entry %d to %d", at, r.index)
		}
		t.Logf("a broken chain: %v (why the read fell back: %v)", err, r.fellBackFor)
	})
	t.Run("a segment missing", func(t *testing.T) {
		l := newHandLog(t, 16<<10)
		r, segs := l.readerInTheFirstOfThree()
		// The one after the reader's, with one after it.
		if err := os.Remove(filepath.Join(l.dir, segs[1].name)); err != nil {
			t.Fatal(err)
		}
		at := r.index
		ents, cost, err := r.read()
		if err == nil || len(ents) > 0 || cost.FellBacks != 1 || r.index != at {
			t.Fatalf("with a segment missing: %d entries, %d fallbacks, at entry %d, %v; want none, ReadAll's error, and the reader still at entry %d", len(ents), cost.FellBacks, r.index, err, at)
		}
		t.Logf("a segment missing: %v (why the read fell back: %v)", err, r.fellBackFor)
	})
}
