package walpods

import (
	"os"
	"strings"
	"time"

	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
)

// Store returns the v2 store the reader keeps in step with the member's
// (nil for NewReaderV3): it changes only inside Poll, so a reader of it
// that runs beside the polls takes a lock the polling one holds.
func (r *Reader) Store() v2store.Store {
	if r.apply == nil {
		return nil
	}
	return r.apply.store
}

// Lost says the reader has stopped for good: the log no longer holds the
// next entry, or an entry could not be applied.
func (r *Reader) Lost() bool { return r.err != nil }

// LogState is what a look at the log's files sees: the newest segment's
// name, size and modification time. A log whose state has not changed
// since a poll began has nothing new to read, once that state has
// settled (Unchanged).
type LogState struct {
	Segment string
	Size    int64
	ModTime time.Time
}

// StateOf looks at the log of the member whose data directory is
// dataDir.
func StateOf(dataDir string) (LogState, error) {
	entries, err := os.ReadDir(walDir(dataDir))
	if err != nil {
		return LogState{}, err
	}
	var last os.DirEntry
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".wal") && (last == nil || e.Name() > last.Name()) {
			last = e
		}
	}
	if last == nil {
		return LogState{}, nil
	}
	info, err := last.Info()
	if err != nil {
		return LogState{}, err
	}
	return LogState{Segment: last.Name(), Size: info.Size(), ModTime: info.ModTime()}, nil
}

// LogSettle is how old a log's last change must be before a look that
// finds the log as the last poll began with it may skip its poll.
//
// The state alone cannot say that nothing was written since: a file's
// modification time is set as a write begins, before its bytes are in
// the file, and on a kernel that keeps coarse timestamps a write in the
// same tick as the one before leaves the time as it was. A poll that
// began while the member was still writing its last record stops before
// it (a length word still zero reads as the log's end, a record cut short
// as one being written), and once the write is whole the log looks as it
// did when that poll began. If the member writes nothing after it, as at
// the end of a scale-up, a look that trusted the state would never read
// that record. Within LogSettle of the last change every look polls,
// which costs a read of the bytes appended since the last one; a write
// that is not whole that long after it began is not waited for.
const LogSettle = 2 * time.Second

// Unchanged says whether a look at the log that finds it at now, at time
// t, may skip its poll: the last poll began with the log at seen, now is
// the same, and the log has not changed for LogSettle (see there why the
// state alone is not enough). A log not yet written is unchanged while it
// stays so.
func Unchanged(seen, now LogState, t time.Time) bool {
	return now == seen && (now.ModTime.IsZero() || t.Sub(now.ModTime) >= LogSettle)
}
