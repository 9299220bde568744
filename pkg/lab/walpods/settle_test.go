package walpods

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.etcd.io/etcd/server/v3/wal"
)

// TestALookPollsUntilTheLogHasSettled writes a log by hand, reads it, and
// then writes one more entry whose segment keeps the modification time it
// had when the read began, as a write that began before that look leaves
// it (its time is set as it begins) and as a coarse clock leaves a write
// in the same tick. Planted: the state alone, the rule before LogSettle,
// finds the log unchanged and would never read the entry. Unchanged
// polls within LogSettle of the log's last change, and the poll reads
// it; once the log has settled, the same look skips.
func TestALookPollsUntilTheLogHasSettled(t *testing.T) {
	l := newHandLog(t, wal.SegmentSizeBytes)
	data := filepath.Dir(filepath.Dir(l.dir))
	l.save(2, 100)
	seen, err := StateOf(data)
	if err != nil || seen.Segment == "" {
		t.Fatalf("the log's state: %+v, %v", seen, err)
	}
	r := l.reader()
	if ents, _, err := r.read(); err != nil || len(ents) != 2 {
		t.Fatalf("the first read: %d entries, %v; want entries 1 and 2", len(ents), err)
	}

	l.save(1, 100)
	if err := os.Chtimes(filepath.Join(l.dir, seen.Segment), seen.ModTime, seen.ModTime); err != nil {
		t.Fatal(err)
	}
	now, err := StateOf(data)
	if err != nil {
		t.Fatal(err)
	}
	if now != seen {
		t.Fatalf("the log after entry 3 looks %+v, not as it did, %+v: the test no longer stands for a write the state does not show", now, seen)
	}
	t.Logf("planted, the state alone: the log after entry 3 looks as it did when the read began (%v), so a look that trusts it skips entry 3", now == seen)
	if Unchanged(seen, now, seen.ModTime.Add(LogSettle/2)) {
		t.Fatalf("a look %v after the log's last change skipped its poll: entry 3 would wait for the member's next write", LogSettle/2)
	}
	ents, _, err := r.read()
	if err != nil || len(ents) != 1 || ents[0].Index != 3 {
		t.Fatalf("the poll within LogSettle of the last change passed on %v, %v; want entry 3", ents, err)
	}

	if !Unchanged(now, now, now.ModTime.Add(LogSettle)) {
		t.Errorf("a look at a log as the last poll began with it, unchanged for LogSettle, polled")
	}
	later := now
	later.ModTime = now.ModTime.Add(time.Millisecond)
	if Unchanged(now, later, later.ModTime.Add(time.Hour)) {
		t.Errorf("a look at a log whose time moved skipped its poll")
	}
	if !Unchanged(LogState{}, LogState{}, time.Now()) {
		t.Errorf("a look at a log not yet written, as it was, polled")
	}
}
