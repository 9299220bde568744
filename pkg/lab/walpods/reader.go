package walpods

import (
	"errors"
	"runtime"

	"go.uber.org/zap"
)

// Reader reads the pod writes of an etcd member from its write-ahead log,
// each once, in the order the member applied them. It is not safe for use
// by more than one goroutine at a time.
type Reader struct {
	wal walReader
	// apply keeps the v2 store (NewReader), mvcc the v3 store
	// (NewReaderV3); the other is nil.
	apply *applier
	mvcc  *mvccApplier
	// err, once set, ends the reader: the store it keeps in step with
	// the member's may have taken part of an entry.
	err error
	// total is the cost of every poll so far.
	total Cost
	polls int
}

// NewReader returns a reader of the member whose data directory is
// dataDir (etcd's --data-dir: the WAL is in member/wal under it), from
// the first entry its WAL holds. The member need not be running, and is
// never written to or locked.
func NewReader(dataDir string) *Reader {
	return &Reader{wal: walReader{dir: walDir(dataDir), lg: zap.NewNop()}, apply: newApplier()}
}

// NewReaderV3 returns a reader of the pods in the member's v3 store, as
// today's kube-apiserver writes them, from the first entry its WAL holds,
// like NewReader. It keeps a v3 store of its own instead of a v2 one: the
// keys the member's mvcc store holds at its current revision, with what
// a compare reads of each (create and mod revision, version, lease,
// value), the store's revision, its leases and its alarms (see mvcc.go
// for what it copies of the member, and what not). Its events carry the
// mod revision and what the value says of the pod.
func NewReaderV3(dataDir string) *Reader {
	return &Reader{wal: walReader{dir: walDir(dataDir), lg: zap.NewNop()}, mvcc: newMVCCApplier()}
}

// Poll reads the entries the member committed since the last poll,
// applies them to the reader's own store (v2, or v3 for NewReaderV3),
// and returns the pod writes that succeeded, in order (the order of a
// watch: by store index, and within a v3 write in the order of its
// changes). What it cost is measured on the calling
// goroutine's thread, which it holds for the time of the poll.
//
// An error that ends the reader (the WAL lost the next entry, an entry
// passed on was replaced, an entry that cannot be applied) is returned by every later poll. Any other
// error leaves the reader where it was: the next poll tries again.
func (r *Reader) Poll() ([]Event, Cost, error) {
	if r.err != nil {
		return nil, Cost{}, r.err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m := startMeter()
	ents, cost, err := r.wal.read()
	readCPU := m.cpu()
	var events []Event
	if err == nil {
		for _, e := range ents {
			var evs []Event
			var aerr error
			if r.mvcc != nil {
				evs, aerr = r.mvcc.apply(e)
			} else {
				evs, aerr = r.apply.apply(e)
			}
			if aerr != nil {
				r.err = aerr
				err = aerr
				break
			}
			events = append(events, evs...)
		}
	} else if isLost(err) || errors.Is(err, ErrReplaced) {
		r.err = err
	}
	m.stop(&cost)
	cost.ReadCPU = readCPU
	r.total.add(cost)
	r.polls++
	return events, cost, err
}

// Index returns the raft index of the last entry applied: every pod
// write at or before it has been returned.
func (r *Reader) Index() uint64 { return r.wal.index }

// StoreIndex returns the index of the reader's store: of its v2 store,
// the member's own store index once the member has applied the same
// entries; for NewReaderV3, its v3 store's current revision, the member's
// once it has applied as far (what a response header says).
func (r *Reader) StoreIndex() uint64 {
	if r.mvcc != nil {
		return uint64(r.mvcc.rev)
	}
	return r.apply.store.Index()
}

// Total returns the summed cost of every poll so far, and how many polls
// there were.
func (r *Reader) Total() (Cost, int) { return r.total, r.polls }

// AskCommit has the reader ask the member which entries it has applied,
// with commitOf, where the log has not yet said that the entries it
// holds are committed: a member of a cluster of several saves the commit
// of a burst's last entries only with its next write (resume.go's
// askCommit). commitOf returns the member's applied index and the term of
// the entry it applied there (etcd's Status: RaftAppliedIndex and the
// header's RaftTerm), of the member whose log the reader reads.
func (r *Reader) AskCommit(commitOf func() (applied, term uint64, err error)) {
	r.wal.commitOf = commitOf
}

// Waiting says the reader, given AskCommit, holds entries of the log not
// yet known to be committed: a poll may pass them on though the log has
// not changed.
func (r *Reader) Waiting() bool {
	if r.wal.commitOf == nil {
		return false
	}
	if at := r.wal.at; at != nil {
		return len(at.pending) > 0
	}
	return r.wal.wholeWaiting
}

// CommitsAsked is how many times the member's answer committed entries
// that the log had not yet said were.
func (r *Reader) CommitsAsked() int { return r.wal.commitsAsked }

// FellBackFor says why the last poll that read with etcd's ReadAll did:
// what it met that a read going on does not expect.
func (r *Reader) FellBackFor() error { return r.wal.fellBackFor }
