package walpods

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.etcd.io/etcd/server/v3/wal"
	"go.uber.org/zap"
)

// TestAskingTheMemberPassesOnOnlyWhatItApplied writes a follower's log by
// hand with etcd's WAL package: entries of term 1, then a new leader's
// term 2 replacing the last of them, then a stale entry that a leader of
// term 3 has replaced in the member's memory and not yet in its log. The
// log's hard states commit only the first two entries. The member's
// answers (its applied index and the term there) commit the others: only
// an entry the reader holds at that index with that term, and only once
// two answers in a row agree. Planted: a reader that takes one answer,
// whatever the term of the entry it holds there, passes on the stale
// entry, and the test names it; when the log then holds the entry that
// replaced it, that reader ends with ErrReplaced, naming it too.
func TestAskingTheMemberPassesOnOnlyWhatItApplied(t *testing.T) {
	l := newHandLog(t, wal.SegmentSizeBytes)
	dir := l.dir
	entry := func(index, term uint64) raftpb.Entry { return termEntry(index, term, true) }
	save := l.saveHardState

	// The member's answer, the same to every call until the test moves
	// it; none before the first.
	var applied, term uint64
	newReader := func(plant bool) *walReader {
		r := &walReader{dir: dir, lg: zap.NewNop(), plantTrustCommit: plant}
		r.commitOf = func() (uint64, uint64, error) {
			if applied == 0 {
				return 0, 0, fmt.Errorf("no answer")
			}
			return applied, term, nil
		}
		return r
	}
	r, planted := newReader(false), newReader(true)
	var got, faulty []raftpb.Entry
	var plantedErr error
	read := func(what string, want ...raftpb.Entry) {
		t.Helper()
		ents, _, err := r.read()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got = append(got, ents...)
		if fmt.Sprint(ents) != fmt.Sprint(want) {
			t.Errorf("%s: passed on %v, want %v", what, ents, want)
		}
		if plantedErr != nil {
			return
		}
		more, _, err := planted.read()
		plantedErr = err
		faulty = append(faulty, more...)
	}

	save(2, 1, entry(1, 1), entry(2, 1), entry(3, 1))
	read("entries of term 1, the first two committed", entry(1, 1), entry(2, 1))
	// A new leader of term 2 replaces entry 3; the member applies 3 and
	// 4 of term 2, and its log says nothing of their commit.
	save(2, 2, entry(3, 2), entry(4, 2))
	read("entry 3 replaced, entry 4 appended, nothing committed, no answer")
	applied, term = 4, 1
	read("the member's first answer, with a term the entry there does not have")
	read("its second: the same, and still not the entry's term")
	applied, term = 4, 2
	read("an answer with the entry's term, the first of its kind")
	read("the same answer again", entry(3, 2), entry(4, 2))

	// The member logged entry 5 of term 2, which a leader of term 3
	// replaced before it committed; the member has applied the leader's
	// entry 5, and its log does not hold it yet.
	save(4, 2, entry(5, 2))
	read("entry 5 of term 2, stale")
	applied, term = 5, 3
	read("the member applied entry 5 of term 3")
	read("and says so again")
	// Its log catches up, and commits it.
	save(5, 3, entry(5, 3))
	read("the leader's entry 5, committed by the log", entry(5, 3))

	want := []raftpb.Entry{entry(1, 1), entry(2, 1), entry(3, 2), entry(4, 2), entry(5, 3)}
	if problems := compareEntries(want, got); len(problems) > 0 {
		t.Errorf("the reader passed on %v; the first difference: %s", got, problems[0])
	}
	if r.commitsAsked != 1 {
		t.Errorf("the member's answers committed entries %d times, want once", r.commitsAsked)
	}
	problems := compareEntries(want, faulty)
	if len(problems) == 0 {
		t.Fatalf("a reader that takes one answer whatever the term passed on %v, the entries applied", faulty)
	}
	t.Logf("planted, a reader that takes one answer whatever the term: %d problems, the first: %s", len(problems), problems[0])
	if !errors.Is(plantedErr, ErrReplaced) || !strings.Contains(plantedErr.Error(), "entry 5 was passed on at term 2") {
		t.Errorf("the planted reader, once the log held the entry that replaced the stale one it passed on: %v; want ErrReplaced naming entry 5 of term 2", plantedErr)
	}
}
