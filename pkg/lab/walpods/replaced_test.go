package walpods

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/wal"
	"go.uber.org/zap"
)

// TestAnEntryPassedOnAndThenReplacedEndsTheReader writes a log by hand in
// which entry 3, committed by the log's hard state, is later replaced by
// a leader of term 2. raft never does that, so the log stands for a
// reader that passed on an entry the member had not committed. Every way
// of reading on must end with ErrReplaced naming entry 3: going on from
// where the last read stopped, from a segment's start, and with etcd's
// ReadAll; and the Reader must stay ended. A reader new to the log passes
// on the replacement and finds nothing wrong, and reading the log again
// from its start, where the stale entry 3 comes before its replacement,
// it still finds nothing wrong.
func TestAnEntryPassedOnAndThenReplacedEndsTheReader(t *testing.T) {
	l := newHandLog(t, wal.SegmentSizeBytes)
	entry := func(index, term uint64) raftpb.Entry { return termEntry(index, term, false) }
	save := l.saveHardState
	ways := []struct {
		name string
		r    *walReader
		// again makes the next read start from a segment's start.
		again bool
	}{
		{"going on", &walReader{dir: l.dir, lg: zap.NewNop()}, false},
		{"from a segment's start", &walReader{dir: l.dir, lg: zap.NewNop()}, true},
		{"with etcd's ReadAll", &walReader{dir: l.dir, lg: zap.NewNop(), onlyReadAll: true}, false},
	}
	poller := NewReader(filepath.Dir(filepath.Dir(l.dir)))

	save(3, 1, entry(1, 1), entry(2, 1), entry(3, 1))
	for _, w := range ways {
		ents, _, err := w.r.read()
		if err != nil || len(ents) != 3 {
			t.Fatalf("%s: the first read passed on %v, %v; want entries 1 to 3", w.name, ents, err)
		}
	}
	if _, _, err := poller.Poll(); err != nil || poller.Index() != 3 {
		t.Fatalf("the Reader's first poll: up to %d, %v; want 3", poller.Index(), err)
	}

	save(4, 2, entry(3, 2), entry(4, 2))
	for _, w := range ways {
		if w.again {
			w.r.at = nil
		}
		ents, _, err := w.r.read()
		if !errors.Is(err, ErrReplaced) || !strings.Contains(err.Error(), "entry 3 was passed on at term 1") ||
			!strings.Contains(err.Error(), "at term 2") {
			t.Errorf("%s: after entry 3 was replaced, the read passed on %v with error %v; want ErrReplaced naming entry 3, term 1 then 2",
				w.name, ents, err)
		}
	}
	for i := 0; i < 2; i++ {
		if _, _, err := poller.Poll(); !errors.Is(err, ErrReplaced) || !poller.Lost() {
			t.Errorf("the Reader's poll %d after entry 3 was replaced: %v (ended: %v); want ErrReplaced, and the reader ended", i+1, err, poller.Lost())
		}
	}

	want := fmt.Sprint([]raftpb.Entry{entry(1, 1), entry(2, 1), entry(3, 2), entry(4, 2)})
	fresh := &walReader{dir: l.dir, lg: zap.NewNop()}
	ents, _, err := fresh.read()
	if err != nil || fmt.Sprint(ents) != want {
		t.Fatalf("a reader new to the log passed on %v, %v; want %s", ents, err, want)
	}
	fresh.at = nil
	if ents, _, err := fresh.read(); err != nil || len(ents) > 0 {
		t.Errorf("read again from the segment's start, past the stale entry 3 of term 1: %v, %v; want nothing and no error", ents, err)
	}
	fresh.onlyReadAll = true
	if ents, _, err := fresh.read(); err != nil || len(ents) > 0 {
		t.Errorf("read again with etcd's ReadAll: %v, %v; want nothing and no error", ents, err)
	}
}
