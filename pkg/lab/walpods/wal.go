package walpods

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/wal"
	"go.etcd.io/etcd/server/v3/wal/walpb"
	"go.uber.org/zap"
)

// ErrLost is the error of a read whose next entry is no longer in the
// WAL: the member purged the segment that held it (etcd keeps five
// segments by default, and drops older ones once a snapshot covers
// them), so the reader cannot go on without a gap.
var ErrLost = errors.New("walpods: the WAL no longer holds the next entry (its segment was purged)")

// ErrReplaced is the error of a read that finds an entry the reader has
// passed on replaced in the log by an entry of a later term. raft never
// replaces a committed entry, so the reader passed on one the member had
// not committed, and its store and events may hold a write that never
// happened: the error ends the reader.
var ErrReplaced = errors.New("walpods: an entry passed on is replaced in the log")

// Cost is what one read of the WAL cost.
type Cost struct {
	// Segments is how many WAL files the read opened: the one holding
	// the last entry read before and every one after it.
	Segments int
	// Bytes is how many bytes the read's system calls returned, measured
	// on the reading thread (its task's rchar, as procfs reads it); -1 where that
	// cannot be measured.
	Bytes int64
	// Entries is how many entries etcd's WAL package decoded after the
	// last entry read before, committed or not.
	Entries int
	// Committed is how many of those were committed and so passed on.
	Committed int
	// FromStarts is 1 for a read that decoded its first segment from
	// the start (the first read, and the first after one that fell
	// back), 0 for one that went on where the last one stopped; a total
	// sums them.
	FromStarts int
	// FellBacks is 1 for a read that went back to etcd's ReadAll, which
	// decodes the segment holding the last entry read from its start
	// (resume.go says when); a total sums them.
	FellBacks int
	// Wall is the time the read and the apply took.
	Wall time.Duration
	// CPU is the reading thread's CPU time over the read and the apply
	// (CLOCK_THREAD_CPUTIME_ID); the garbage collector's share, on other
	// threads, is not in it. Zero where it cannot be measured.
	CPU time.Duration
	// ReadCPU is the part of CPU spent reading the log (its system
	// calls and the decoding); the rest of CPU is the applying.
	ReadCPU time.Duration
}

// add adds c2 to c.
func (c *Cost) add(c2 Cost) {
	c.Segments += c2.Segments
	c.Bytes += c2.Bytes
	c.Entries += c2.Entries
	c.Committed += c2.Committed
	c.FromStarts += c2.FromStarts
	c.FellBacks += c2.FellBacks
	c.Wall += c2.Wall
	c.CPU += c2.CPU
	c.ReadCPU += c2.ReadCPU
}

// walReader reads the committed entries of a WAL directory, each once,
// with etcd's own WAL package, opened read-only: no lock, no write.
type walReader struct {
	dir string
	lg  *zap.Logger
	// index and term are those of the last entry passed on; 0 before the
	// first.
	index, term uint64
	// passed holds the term of every entry passed on, as runs: the
	// first index of each term (checkPassed).
	passed []termRun
	// at is where the last read stopped, for the next to go on from
	// (resume.go); nil before the first read and after one that fell
	// back to etcd's ReadAll.
	at *position
	// readAllFunc, when set, stands in for readAll: a test's.
	readAllFunc func() ([]raftpb.Entry, raftpb.HardState, error)
	// onlyReadAll makes every read etcd's ReadAll: a test's reference.
	onlyReadAll bool
	// plantSkip is a test's planted fault: a read that goes on passes
	// on the entries it found committed but the first.
	plantSkip bool
	// commitOf, when set, asks the member its applied index and the
	// term of the entry there (askCommit says when); commitsAsked counts
	// the answers that committed entries the log had not.
	commitOf     func() (applied, term uint64, err error)
	commitsAsked int
	// plantTrustCommit is a test's planted fault: askCommit takes one
	// answer, and the entry at the applied index whatever its term.
	plantTrustCommit bool
	// fellBackFor is why the last read that fell back did; wholeWaiting
	// says the last read with ReadAll left entries not yet committed.
	fellBackFor  error
	wholeWaiting bool
}

// read returns the committed entries after the last one read before. It
// goes on from where the last read stopped (readOn), and falls back to
// readWhole where that meets what it does not expect.
func (r *walReader) read() ([]raftpb.Entry, Cost, error) {
	var cost Cost
	if !r.onlyReadAll && r.readAllFunc == nil {
		out, err := r.readOn(&cost)
		if err == nil {
			cost.Committed = len(out)
			return out, cost, nil
		}
		if errors.Is(err, ErrReplaced) {
			return nil, cost, err
		}
		r.fellBackFor = err
		cost = Cost{FromStarts: cost.FromStarts, FellBacks: 1}
	}
	return r.readWhole(cost)
}

// readWhole reads with etcd's package: it opens the WAL again at the
// last entry read, which the package finds by the segments' names, and
// reads the segment holding that entry from its start, and every segment
// after it.
func (r *walReader) readWhole(cost Cost) ([]raftpb.Entry, Cost, error) {
	segments, err := segmentsFrom(r.dir, r.index)
	if err != nil {
		return nil, cost, err
	}
	cost.Segments = segments
	readAll := r.readAll
	if r.readAllFunc != nil {
		readAll = r.readAllFunc
	}
	var ents []raftpb.Entry
	var st raftpb.HardState
	for attempt := 0; ; attempt++ {
		ents, st, err = readAll()
		// The member may be writing the record the decoder reads: a
		// record it has begun and not finished reads as a torn tail
		// (io.ErrUnexpectedEOF, which ReadAll accepts in read mode), but
		// a page copied half way can fail its CRC, or, with the record's
		// first bytes still zeros, fail to decode at all ("proto: Record:
		// illegal tag 0", which etcd's decoder returns as it is, seen in
		// CI). Any such read is tried once more, a moment later; a second
		// failure is reported. A segment purged is no such failure.
		if err != nil && attempt == 0 && !isLost(err) {
			time.Sleep(retryAfter)
			continue
		}
		break
	}
	if err != nil {
		return nil, cost, err
	}
	cost.Entries = len(ents)
	// Only the entries up to the hard state's commit index are decided;
	// those after it are read again next time.
	var out []raftpb.Entry
	r.wholeWaiting = len(ents) > 0 && ents[len(ents)-1].Index > st.Commit
	for _, e := range ents {
		if e.Index <= r.index {
			if err := r.checkPassed(e); err != nil {
				return nil, cost, err
			}
			continue
		}
		if e.Index > st.Commit {
			break
		}
		if e.Index != r.index+1 {
			return nil, cost, fmt.Errorf("walpods: entry %d follows entry %d in %s", e.Index, r.index, r.dir)
		}
		out = append(out, e)
		r.pass(e)
	}
	cost.Committed = len(out)
	return out, cost, nil
}

// termRun is a run of entries passed on with one term, from index first.
type termRun struct{ first, term uint64 }

// pass notes e as passed on.
func (r *walReader) pass(e raftpb.Entry) {
	if n := len(r.passed); n == 0 || r.passed[n-1].term != e.Term {
		r.passed = append(r.passed, termRun{e.Index, e.Term})
	}
	r.index, r.term = e.Index, e.Term
}

// passedTerm returns the term of the entry passed on at index; false for
// an index not passed on.
func (r *walReader) passedTerm(index uint64) (uint64, bool) {
	if len(r.passed) == 0 || index < r.passed[0].first || index > r.index {
		return 0, false
	}
	i := sort.Search(len(r.passed), func(i int) bool { return r.passed[i].first > index })
	return r.passed[i-1].term, true
}

// checkPassed returns ErrReplaced if e, read from the log at an index
// already passed on, is of a later term than the entry passed on there.
// Of an earlier term, e is a stale entry logged before the one passed on
// replaced it, which a read from a segment's start meets first; of the
// same term, it is the entry passed on (two entries with one index and
// term are the same). A later term can only have been logged after the
// entry was passed on, replacing it: raft does that only to an entry
// not committed.
func (r *walReader) checkPassed(e raftpb.Entry) error {
	term, ok := r.passedTerm(e.Index)
	if !ok || e.Term <= term {
		return nil
	}
	return fmt.Errorf("%w: entry %d was passed on at term %d, and the log in %s now holds it at term %d", ErrReplaced, e.Index, term, r.dir, e.Term)
}

// retryAfter is how long a read that failed waits before its one retry,
// a moment for the member to finish the write under way.
const retryAfter = 5 * time.Millisecond

// readAll opens the WAL read-only at the entry before the last one
// passed on, and reads what follows it: the log's entry at the last one
// passed on, for checkPassed, and every entry after. Where a segment
// begins with the last entry passed on, it opens at that entry, as etcd
// would otherwise open the segment before, which the member may have
// purged: that read checks nothing.
func (r *walReader) readAll() ([]raftpb.Entry, raftpb.HardState, error) {
	at := walpb.Snapshot{Index: r.index, Term: r.term}
	if r.index > 1 && !segmentBegins(r.dir, r.index) {
		if term, ok := r.passedTerm(r.index - 1); ok {
			at = walpb.Snapshot{Index: r.index - 1, Term: term}
		}
	}
	w, err := wal.OpenForRead(r.lg, r.dir, at)
	if err != nil {
		if errors.Is(err, wal.ErrFileNotFound) {
			return nil, raftpb.HardState{}, fmt.Errorf("%w: no segment of %s holds entry %d: %v", ErrLost, r.dir, r.index+1, err)
		}
		return nil, raftpb.HardState{}, err
	}
	defer w.Close()
	_, st, ents, err := w.ReadAll()
	// Opened at an index with no snapshot record, ReadAll says so after
	// reading everything: the entries are whole.
	if errors.Is(err, wal.ErrSnapshotNotFound) {
		err = nil
	}
	if err != nil {
		return nil, raftpb.HardState{}, fmt.Errorf("walpods: reading the WAL in %s after entry %d: %w", r.dir, r.index, err)
	}
	return ents, st, nil
}

// segmentsFrom says how many segments of dir a read after entry index
// opens, as etcd's package chooses them: the last one whose first entry
// is at most index, and every one after it. It only measures; the WAL
// package does its own choosing.
func segmentsFrom(dir string, index uint64) (int, error) {
	names, err := segmentNames(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for i := len(names) - 1; i >= 0; i-- {
		n++
		if names[i].first <= index {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%w: the first segment of %s begins after entry %d", ErrLost, dir, index+1)
}

// segment is one WAL file, as its name describes it.
type segment struct {
	name       string
	seq, first uint64
}

// segmentNames lists dir's WAL segments in order. A segment's name is
// its sequence number and the index of the first entry written to it,
// both in hexadecimal (etcd's walName).
func segmentNames(dir string) ([]segment, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []segment
	for _, de := range des {
		var s segment
		if !strings.HasSuffix(de.Name(), ".wal") {
			continue
		}
		if _, err := fmt.Sscanf(de.Name(), "%016x-%016x.wal", &s.seq, &s.first); err != nil {
			continue
		}
		s.name = de.Name()
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out, nil
}

// walDir is the WAL directory of a member's data directory.
func walDir(dataDir string) string {
	return filepath.Join(dataDir, "member", "wal")
}

// segmentBegins says whether a segment of dir begins with entry index.
func segmentBegins(dir string, index uint64) bool {
	names, err := segmentNames(dir)
	if err != nil {
		return true
	}
	for _, s := range names {
		if s.first == index {
			return true
		}
	}
	return false
}

// isLost says whether err is ErrLost.
func isLost(err error) bool { return errors.Is(err, ErrLost) }
