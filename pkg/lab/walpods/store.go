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
// has nothing new to read.
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
