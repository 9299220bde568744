package walpods

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"go.etcd.io/etcd/raft/v3/raftpb"
	"go.uber.org/zap"
)

// TestAReadThatGoesOnReadsWhatReadAllReads follows a member through
// writes that roll its log over many times and snapshot it, with two
// readers of its WAL polled in turn: one that goes on where its last read
// stopped (the reader's default) and one that reads every time with
// etcd's ReadAll. Both pass on the same committed entries, byte for
// byte, with the same index and term, none missing and none twice; the
// one that goes on reads each record about once, and falls back to
// ReadAll seldom. Then a fault is planted in the read that goes on (it
// passes on the entries it found committed but the first, as an index
// moved one too far would), and the comparison must name an entry lost.
func TestAReadThatGoesOnReadsWhatReadAllReads(t *testing.T) {
	m := startMember(t, 500, 1<<20)
	on := &walReader{dir: walDir(m.dataDir), lg: zap.NewNop()}
	whole := &walReader{dir: walDir(m.dataDir), lg: zap.NewNop(), onlyReadAll: true}
	planted := &walReader{dir: walDir(m.dataDir), lg: zap.NewNop(), plantSkip: true}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	written := make(chan error, 1)
	go func() {
		_, err := write(ctx, m.url, 1500, 8)
		written <- err
	}()
	var got, want, faulty []raftpb.Entry
	var onCost, wholeCost Cost
	poll := func(r *walReader, into *[]raftpb.Entry, total *Cost) {
		t.Helper()
		// The bytes read are measured on the reading thread, as Poll
		// measures them.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		m := startMeter()
		ents, cost, err := r.read()
		m.stop(&cost)
		if err != nil {
			t.Fatal(err)
		}
		*into = append(*into, ents...)
		if total != nil {
			total.add(cost)
		}
	}
	polls := 0
	untilWritten(t, written, func() {
		poll(on, &got, &onCost)
		poll(whole, &want, &wholeCost)
		poll(planted, &faulty, nil)
		polls++
	})
	// All three catch up with the member.
	committed := m.etcd.Server.CommittedIndex()
	for _, r := range []struct {
		r    *walReader
		into *[]raftpb.Entry
	}{{on, &got}, {whole, &want}, {planted, &faulty}} {
		for r.r.index < committed {
			if ctx.Err() != nil {
				t.Fatalf("a reader is at entry %d of %d", r.r.index, committed)
			}
			poll(r.r, r.into, nil)
			time.Sleep(10 * time.Millisecond)
		}
	}
	checkRolloversAndSnapshots(t, m.dataDir, true, true)

	if problems := compareEntries(want, got); len(problems) > 0 {
		t.Fatalf("the read that goes on passed on %d entries, ReadAll %d; they differ in %d ways, the first: %s", len(got), len(want), len(problems), problems[0])
	}
	t.Logf("%d polls: both readers passed on the same %d entries, up to index %d; the read that goes on read %.1f MB (%d polls from a segment's start, %d fell back to ReadAll), ReadAll %.1f MB",
		polls, len(got), on.index, mb(onCost.Bytes), onCost.FromStarts, onCost.FellBacks, mb(wholeCost.Bytes))
	// A read from a segment's start is the first, or one after a
	// fallback (and a read that falls back may have begun there).
	if onCost.FromStarts > 1+onCost.FellBacks {
		t.Errorf("%d reads started from a segment's start; only the first and those after the %d fallbacks should", onCost.FromStarts, onCost.FellBacks)
	}
	// A fallback is a record caught while the member wrote it, twice
	// running: seldom. ReadAll reads the current segment again at every
	// poll, so the read that goes on reads far less.
	if onCost.FellBacks > polls/10 {
		t.Errorf("%d of %d polls fell back to ReadAll", onCost.FellBacks, polls)
	}
	if onCost.Bytes >= 0 && wholeCost.Bytes >= 0 && onCost.Bytes*2 > wholeCost.Bytes {
		t.Errorf("the read that goes on read %d bytes, ReadAll %d: it does not read less", onCost.Bytes, wholeCost.Bytes)
	}

	t.Run("a record caught while written", func(t *testing.T) { caughtWhileWritten(t, m.dataDir, want) })

	problems := compareEntries(want, faulty)
	if len(problems) == 0 {
		t.Fatal("a read that goes on and drops an entry passed on what ReadAll passes on")
	}
	t.Logf("planted, a read that goes on and drops the first entry it passes on: %d problems, the first: %s", len(problems), problems[0])
}

// caughtWhileWritten copies the member's log and cuts its newest segment
// inside its last record, as a read that comes while the member writes it
// finds it. The read that goes on stops before it, with no error; a
// second read that stops at the same record falls back to ReadAll, which
// takes it for a torn tail, no error either; once the record is whole,
// the next read passes it on.
func caughtWhileWritten(t *testing.T, dataDir string, want []raftpb.Entry) {
	dir := copyWAL(t, dataDir)
	segs, err := segmentNames(walDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	newest := filepath.Join(walDir(dir), segs[len(segs)-1].name)
	whole, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	// Where the last record ends, and where the one before it ends.
	probe := &walReader{dir: walDir(dir), lg: zap.NewNop()}
	if _, _, err := probe.read(); err != nil {
		t.Fatal(err)
	}
	end := probe.at.off
	if err := os.Truncate(newest, end-5); err != nil {
		t.Fatal(err)
	}

	r := &walReader{dir: walDir(dir), lg: zap.NewNop()}
	var got []raftpb.Entry
	for i, wantBack := range []int{0, 1} {
		ents, cost, err := r.read()
		if err != nil {
			t.Fatalf("read %d of a log cut inside its last record: %v", i+1, err)
		}
		got = append(got, ents...)
		if cost.FellBacks != wantBack {
			t.Errorf("read %d of a log cut inside its last record: %d fallbacks to ReadAll, want %d", i+1, cost.FellBacks, wantBack)
		}
	}
	if err := os.WriteFile(newest, whole, 0o600); err != nil {
		t.Fatal(err)
	}
	ents, cost, err := r.read()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, ents...)
	if problems := compareEntries(want, got); len(problems) > 0 {
		t.Fatalf("read before, while and after the last record was cut, the log gives %d entries, ReadAll %d; the first difference: %s", len(got), len(want), problems[0])
	}
	t.Logf("the last record cut: the first read stopped before it, the second fell back to ReadAll, and the read once it was whole (from a segment's start: %d) passed on the rest; %d entries, as ReadAll", cost.FromStarts, len(got))
}

// compareEntries names each way got differs from want, the reference: an
// entry missing, one passed on twice or out of order, or one whose term or
// data differ.
func compareEntries(want, got []raftpb.Entry) []string {
	var problems []string
	j := 0
	for _, w := range want {
		if j >= len(got) {
			problems = append(problems, fmt.Sprintf("missing entry %d (term %d) and the %d after it", w.Index, w.Term, want[len(want)-1].Index-w.Index))
			break
		}
		g := got[j]
		switch {
		case g.Index > w.Index:
			problems = append(problems, fmt.Sprintf("missing entry %d (term %d): entry %d follows entry %d", w.Index, w.Term, g.Index, w.Index-1))
			continue
		case g.Index < w.Index:
			problems = append(problems, fmt.Sprintf("entry %d passed on again, or out of order, where entry %d was due", g.Index, w.Index))
		case g.Term != w.Term || g.Type != w.Type || string(g.Data) != string(w.Data):
			problems = append(problems, fmt.Sprintf("entry %d differs: term %d, %d bytes; the reference's: term %d, %d bytes", w.Index, g.Term, len(g.Data), w.Term, len(w.Data)))
		}
		j++
	}
	if j < len(got) {
		problems = append(problems, fmt.Sprintf("%d entries after ReadAll's last, from entry %d", len(got)-j, got[j].Index))
	}
	return problems
}

// untilWritten calls poll every 20 ms, and once more after the writers
// are done: once written has their outcome, which fails t if it is an
// error.
func untilWritten(t *testing.T, written <-chan error, poll func()) {
	t.Helper()
	for done := false; !done; {
		select {
		case err := <-written:
			if err != nil {
				t.Fatal(err)
			}
			done = true
		case <-time.After(20 * time.Millisecond):
		}
		poll()
	}
}
