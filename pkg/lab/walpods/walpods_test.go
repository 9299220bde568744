package walpods

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"go.etcd.io/etcd/server/v3/wal"
	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// runConfig is one run of writers against a member that a reader follows.
type runConfig struct {
	pods, writers int
	snapshotCount uint64
	segmentBytes  int64
	// every is how often the reader polls.
	every time.Duration
	// restartAt, if not 0, is the commit index at which the member is
	// closed, while the writers write, and started again (restartMidway).
	restartAt uint64
}

// run is what a run left: the writers' workload, the reader's events and
// costs, and the stopped member's data directory.
type run struct {
	dataDir  string
	work     *workload
	events   []Event
	costs    []Cost
	reader   *Reader
	duration time.Duration
	// processCPU is the whole process's CPU over the writes and the
	// catching up: member, writers and reader.
	processCPU time.Duration
	// restart is what the run saw of the member's restart; nil if it
	// did not restart it.
	restart *restarted
}

// followRun starts a member, writes cfg's workload to it while a reader
// polls its WAL, waits until the reader has every committed entry, checks
// the reader's store against the member's, and stops the member.
func followRun(t *testing.T, cfg runConfig) *run {
	t.Helper()
	var m *member
	if cfg.restartAt > 0 {
		m = startMemberAt(t, restartPort(t), cfg.snapshotCount, cfg.segmentBytes)
	} else {
		m = startMember(t, cfg.snapshotCount, cfg.segmentBytes)
	}
	r := NewReader(m.dataDir)
	out := &run{dataDir: m.dataDir, reader: r}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// target, once sent, is the commit index to reach before stopping.
	target := make(chan uint64, 1)
	done := make(chan error, 1)
	go func() {
		var goal uint64
		for {
			evs, cost, err := r.Poll()
			if err != nil {
				done <- err
				return
			}
			out.events = append(out.events, evs...)
			out.costs = append(out.costs, cost)
			select {
			case goal = <-target:
			default:
			}
			if goal > 0 && r.Index() >= goal {
				done <- nil
				return
			}
			select {
			case <-ctx.Done():
				done <- fmt.Errorf("the reader is at index %d, short of %d: %v", r.Index(), goal, ctx.Err())
				return
			case <-time.After(cfg.every):
			}
		}
	}()

	cpu0 := processCPU()
	start := time.Now()
	// The restart, if any, happens while the writers write; the member
	// serves at the same address after it.
	base := m.url
	var down *outage
	writing := make(chan struct{})
	restartc := make(chan error, 1)
	if cfg.restartAt > 0 {
		down = newOutage()
		go func() {
			var err error
			out.restart, err = restartMidway(ctx, m, cfg.restartAt, crashV2(), down, writing)
			if err != nil {
				cancel()
			}
			restartc <- err
		}()
	} else {
		restartc <- nil
	}
	w, err := writeThrough(ctx, base, cfg.pods, cfg.writers, down)
	close(writing)
	if rerr := <-restartc; rerr != nil {
		err = rerr
	}
	if err != nil {
		cancel()
		<-done
		t.Fatal(err)
	}
	out.work = w
	if rs := out.restart; rs != nil {
		// The member made the write its crash left logged, which nobody
		// acknowledged: it is one of the writes the reader must report,
		// at the index the member gave it.
		r, err := tools.NewEtcdClient([]string{m.url}).Get(rs.crash.key, false, false)
		if err != nil || r.Node.Value != rs.crash.value {
			t.Fatalf("after its restart the member does not hold %s as the entry its crash left logged wrote it: %v", rs.crash.key, err)
		}
		w.writes = append(w.writes, Event{Type: Created, Key: rs.crash.key, Value: rs.crash.value, StoreIndex: r.Node.ModifiedIndex})
		sort.Slice(w.writes, func(i, j int) bool { return w.writes[i].StoreIndex < w.writes[j].StoreIndex })
	}
	committed := m.etcd.Server.CommittedIndex()
	target <- committed
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out.duration = time.Since(start)
	out.processCPU = processCPU() - cpu0

	// The member's store, once it has applied as far: its index and its
	// pods are the reader's.
	for m.etcd.Server.AppliedIndex() < committed {
		time.Sleep(10 * time.Millisecond)
	}
	client := tools.NewEtcdClient([]string{m.url})
	resp, err := client.Get(strings.TrimSuffix(Prefix, "/"), false, true)
	if err != nil {
		t.Fatal(err)
	}
	tools.CloseIdleConnections()
	if got := r.StoreIndex(); got != resp.EtcdIndex {
		t.Errorf("the reader's v2 store is at index %d, the member's at %d", got, resp.EtcdIndex)
	}
	theirs := map[string]string{}
	for _, n := range resp.Node.Nodes {
		theirs[n.Key] = n.Value
	}
	if ours := readerPods(t, r); !reflect.DeepEqual(ours, theirs) {
		t.Errorf("the reader's store holds %d pods, the member's %d, and they differ", len(ours), len(theirs))
	}
	m.close()
	return out
}

// readerPods is every pod in the reader's own v2 store, by key.
func readerPods(t *testing.T, r *Reader) map[string]string {
	t.Helper()
	e, err := r.apply.store.Get("/1"+strings.TrimSuffix(Prefix, "/"), true, false)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range e.Node.Nodes {
		out[strings.TrimPrefix(n.Key, "/1")] = *n.Value
	}
	return out
}

func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestFollowsMember follows a member through some 20 000 requests from 8
// writers, 8 000 of them successful pod writes, with a snapshot every 500 entries and WAL segments of 256 KiB,
// and checks the reader's events against the writes the member
// acknowledged; then plants faults in copies of its WAL.
func TestFollowsMember(t *testing.T) {
	out := followRun(t, runConfig{pods: 2560, writers: 8, snapshotCount: 500, segmentBytes: 256 << 10, every: 20 * time.Millisecond})
	checkRun(t, out, true)
	faults(t, out)
}

// TestFollowsMemberLong is the same over some 100 000 requests, 45 000
// of them successful pod writes, with etcd's own segment size (64 MB), to
// measure what a poll costs when the segment it reads is large. It runs
// only with KUBE_REWIND_WAL_LONG=1.
func TestFollowsMemberLong(t *testing.T) {
	if os.Getenv("KUBE_REWIND_WAL_LONG") != "1" {
		t.Skip("set KUBE_REWIND_WAL_LONG=1 to run")
	}
	out := followRun(t, runConfig{pods: 12800, writers: 16, snapshotCount: 500, segmentBytes: wal.SegmentSizeBytes, every: 100 * time.Millisecond})
	checkRun(t, out, false)
}

// checkRun compares a run's events with its writes, checks that the WAL
// rolled over and was snapshotted, reads it again from the start in one
// poll, and logs what the polls cost.
func checkRun(t *testing.T, out *run, wantRollover bool) {
	t.Helper()
	w := out.work
	if problems := compareEvents(w.writes, out.events); len(problems) > 0 {
		t.Errorf("the reader's %d events differ from the %d acknowledged writes in %d ways; the first:\n%s", len(out.events), len(w.writes), len(problems), strings.Join(problems[:min(10, len(problems))], "\n"))
	}
	t.Logf("%d requests: %d successful pod writes, %d refused compare-and-swaps, %d other refused pod writes, %d writes outside %s; the reader emitted %d events, up to raft index %d (store index %d)",
		w.requests, len(w.writes), len(w.refusedCAS), w.refused-len(w.refusedCAS), w.others, Prefix, len(out.events), out.reader.Index(), out.reader.StoreIndex())

	checkRolloversAndSnapshots(t, out.dataDir, wantRollover, true)

	logCosts(t, out)

	// A reader that starts after the run and reads everything at once
	// emits the same events.
	again := NewReader(out.dataDir)
	evs, cost, err := again.Poll()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(evs, out.events) {
		t.Errorf("read in one poll after the run, the WAL gives %d events, polled during it %d", len(evs), len(out.events))
	}
	t.Logf("one poll of the whole WAL after the run: %d segments, %.1f MB, %d entries, %.0f ms (%.0f ms of the thread's CPU)",
		cost.Segments, mb(cost.Bytes), cost.Entries, ms(cost.Wall), ms(cost.CPU))
}

// logCosts logs what the polls cost: at the end of the run, and in all.
func logCosts(t *testing.T, out *run) {
	t.Helper()
	total, polls := out.reader.Total()
	// The last polls of the run are those that found entries; the last
	// one found none.
	var end Cost
	n := 0
	for i := len(out.costs) - 1; i >= 0 && n < 10; i-- {
		if out.costs[i].Committed > 0 {
			end.add(out.costs[i])
			n++
		}
	}
	idle, last, err := out.reader.Poll()
	if err != nil || len(idle) > 0 {
		t.Fatalf("a poll after the run: %d events, %v", len(idle), err)
	}
	t.Logf("%d polls in %.1f s: %.1f MB read, %.0f ms of wall time, %.0f ms of the reading thread's CPU (%.1f µs per successful pod write, %.1f %% of the process's %.1f s of CPU, which includes the member and the writers); %s",
		polls, out.duration.Seconds(), mb(total.Bytes), ms(total.Wall), ms(total.CPU), float64(total.CPU.Microseconds())/float64(len(out.work.writes)),
		100*total.CPU.Seconds()/out.processCPU.Seconds(), out.processCPU.Seconds(), resumes(total))
	if n > 0 {
		t.Logf("the last %d polls that found entries: %.0f KB, %.2f ms wall, %.2f ms CPU, %.1f segments, %.0f entries decoded, %.0f committed, per poll",
			n, kb(end.Bytes)/float64(n), ms(end.Wall)/float64(n), ms(end.CPU)/float64(n), float64(end.Segments)/float64(n), float64(end.Entries)/float64(n), float64(end.Committed)/float64(n))
	}
	t.Logf("a poll after the run, which finds nothing new: %.0f KB, %.2f ms wall, %.2f ms CPU, %d segments", kb(last.Bytes), ms(last.Wall), ms(last.CPU), last.Segments)
}

// resumes says how the polls read: how many went on where the last one
// stopped, and how many fell back to etcd's ReadAll.
func resumes(total Cost) string {
	return fmt.Sprintf("%d polls read from a segment's start, %d fell back to ReadAll", total.FromStarts, total.FellBacks)
}

func mb(b int64) float64         { return float64(b) / 1e6 }
func kb(b int64) float64         { return float64(b) / 1e3 }
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// faults plants faults in copies of a run's WAL, or in what the reader
// emitted, and checks that each is caught.
func faults(t *testing.T, out *run) {
	t.Run("torn tail", func(t *testing.T) { tornTail(t, out) })
	t.Run("refused compare-and-swap counted", func(t *testing.T) {
		r := NewReader(out.dataDir)
		r.apply.countFailed = true
		evs, _, err := r.Poll()
		if err != nil {
			t.Fatal(err)
		}
		problems := compareEvents(out.work.writes, evs)
		extra := 0
		for _, p := range problems {
			if strings.HasPrefix(p, "extra event at raft index ") {
				extra++
			}
		}
		if extra != len(out.work.refusedCAS) {
			t.Errorf("counting refused compare-and-swaps as writes, the check found %d extra events, want %d; %d problems in all", extra, len(out.work.refusedCAS), len(problems))
		}
		// Each extra event is one of the refused writes.
		refused := 0
		for _, e := range evs {
			if out.work.refusedCAS[e.Value] {
				refused++
			}
		}
		if refused != len(out.work.refusedCAS) {
			t.Errorf("the faulty reader emitted %d of the %d refused compare-and-swaps", refused, len(out.work.refusedCAS))
		}
		if len(problems) > 0 {
			t.Logf("the check reports %d problems, the first: %s", len(problems), problems[0])
		}
	})
	t.Run("event lost at a segment boundary", func(t *testing.T) {
		segs, err := segmentNames(walDir(out.dataDir))
		if err != nil {
			t.Fatal(err)
		}
		// The first pod event in the second segment or later.
		drop := -1
		for _, s := range segs[1:] {
			for i, e := range out.events {
				if e.RaftIndex >= s.first {
					drop = i
					break
				}
			}
			if drop >= 0 {
				break
			}
		}
		if drop < 0 {
			t.Fatal("no event after a segment boundary")
		}
		lost := out.events[drop]
		evs := append(append([]Event(nil), out.events[:drop]...), out.events[drop+1:]...)
		problems := compareEvents(out.work.writes, evs)
		// The check names the write by its store index, and the raft
		// indexes of the events on either side of the one dropped.
		want := fmt.Sprintf("missing the write at store index %d (%s %s), between raft index %d and raft index %d",
			lost.StoreIndex, lost.Type, lost.Key, out.events[drop-1].RaftIndex, out.events[drop+1].RaftIndex)
		if len(problems) != 1 || problems[0] != want {
			t.Fatalf("dropping %v, the check reports %q, want only %q", lost, problems, want)
		}
		t.Logf("dropped %v, the first event after the start of a segment; the check reports: %s", lost, problems[0])
	})
	t.Run("segment purged", func(t *testing.T) {
		dir := copyWAL(t, out.dataDir)
		segs, err := segmentNames(walDir(dir))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(walDir(dir), segs[0].name)); err != nil {
			t.Fatal(err)
		}
		r := NewReader(dir)
		evs, _, err := r.Poll()
		if !errors.Is(err, ErrLost) || len(evs) > 0 {
			t.Fatalf("reading a WAL whose first segment is gone: %d events and %v, want none and ErrLost", len(evs), err)
		}
		if _, _, err2 := r.Poll(); !errors.Is(err2, ErrLost) {
			t.Errorf("the poll after ErrLost returned %v", err2)
		}
		t.Logf("with the first segment removed: %v", err)
	})
}

// tornTail cuts the WAL's last pod write in two, by truncating the file
// in the middle of its JSON, and by zeroing from a sector boundary inside
// a late pod write to the end (the segment's preallocated space is zeros,
// so a torn write looks so), and
// checks that a reader returns everything before it, and no error.
func tornTail(t *testing.T, out *run) {
	for _, zero := range []bool{false, true} {
		dir := copyWAL(t, out.dataDir)
		segs, err := segmentNames(walDir(dir))
		if err != nil {
			t.Fatal(err)
		}
		// The last segment that holds a pod's JSON; later ones, if any,
		// go: the member stopped while writing it.
		var name string
		var data []byte
		var at int
		for i := len(segs) - 1; i >= 0; i-- {
			p := filepath.Join(walDir(dir), segs[i].name)
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if at = bytes.LastIndex(b, []byte(`{"kind":"Pod"`)); at >= 0 {
				name, data = p, b
				break
			}
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		}
		if name == "" {
			t.Fatal("no pod in the WAL")
		}
		cut := at + 300
		var tornWrite Event
		if zero {
			// From a sector boundary inside a pod write: a disk writes
			// whole sectors, and etcd's decoder takes a record with a
			// zeroed sector for a torn one, where a record zeroed from
			// the middle of a sector is a CRC mismatch (as tornTailV3).
			at, cut, tornWrite = sectorInsidePodWrite(t, data, out.events)
		}
		if zero {
			for i := cut; i < len(data); i++ {
				data[i] = 0
			}
			err = os.WriteFile(name, data, 0o600)
		} else {
			err = os.Truncate(name, int64(cut))
		}
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(dir)
		evs, _, err := r.Poll()
		if err != nil {
			t.Fatalf("reading a WAL torn in its last record (zeroed: %v): %v", zero, err)
		}
		if len(evs) == 0 || len(evs) >= len(out.events) || !reflect.DeepEqual(evs, out.events[:len(evs)]) {
			t.Fatalf("reading a WAL torn in its last pod write (zeroed: %v): %d events, want a shorter prefix of the %d read whole", zero, len(evs), len(out.events))
		}
		if r.Index() >= out.reader.Index() {
			t.Errorf("torn, the WAL still gave entries up to %d, whole up to %d", r.Index(), out.reader.Index())
		}
		torn := string(data[at : at+300])
		for _, e := range evs {
			if zero && e.RaftIndex >= tornWrite.RaftIndex || !zero && strings.HasPrefix(e.Value, torn) && e.Type != Deleted {
				t.Errorf("the torn write was reported: %v", e)
			}
		}
		t.Logf("torn %d bytes into a pod write in %s (zeroed: %v): %d of %d events, up to raft index %d of %d, no error",
			cut-at, filepath.Base(name), zero, len(evs), len(out.events), r.Index(), out.reader.Index())
	}
}

// sectorInsidePodWrite finds, in a segment's bytes, the last pod write
// (of events, read whole) whose JSON crosses a sector boundary, and
// returns where its JSON starts, that boundary, and the write.
func sectorInsidePodWrite(t *testing.T, data []byte, events []Event) (at, boundary int, torn Event) {
	t.Helper()
	const sector = 512 // etcd's minSectorSize
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		if e.Type == Deleted {
			continue
		}
		at := bytes.LastIndex(data, []byte(e.Value))
		if at < 0 {
			continue
		}
		if b := (at/sector + 1) * sector; b < at+len(e.Value) {
			return at, b, e
		}
	}
	t.Fatal("no pod write crosses a sector boundary in the segment")
	return 0, 0, Event{}
}

// copyWAL copies a data directory's WAL into a new data directory.
func copyWAL(t *testing.T, dataDir string) string {
	t.Helper()
	dir := t.TempDir()
	to := walDir(dir)
	if err := os.MkdirAll(to, 0o700); err != nil {
		t.Fatal(err)
	}
	from := walDir(dataDir)
	des, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range des {
		if !strings.HasSuffix(de.Name(), ".wal") {
			continue
		}
		src, err := os.Open(filepath.Join(from, de.Name()))
		if err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(filepath.Join(to, de.Name()))
		if err == nil {
			_, err = io.Copy(dst, src)
			if cerr := dst.Close(); err == nil {
				err = cerr
			}
		}
		src.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// checkRolloversAndSnapshots logs how many times the member's WAL rolled
// over and how many snapshots it took, and fails where the run wanted a
// rollover or a snapshot and saw none.
func checkRolloversAndSnapshots(t *testing.T, dataDir string, wantRollover, wantSnapshot bool) {
	t.Helper()
	walPath := walDir(dataDir)
	segs, err := segmentNames(walPath)
	if err != nil {
		t.Fatal(err)
	}
	snaps, err := wal.ValidSnapshotEntries(zap.NewNop(), walPath)
	if err != nil {
		t.Fatal(err)
	}
	snapFiles, _ := filepath.Glob(filepath.Join(dataDir, "member", "snap", "*.snap"))
	rollovers := int(segs[len(segs)-1].seq)
	t.Logf("the WAL rolled over %d times (%d segments); it holds %d snapshot records after the first, and member/snap %d snapshot files",
		rollovers, len(segs), len(snaps)-1, len(snapFiles))
	if wantRollover && rollovers < 1 {
		t.Errorf("the WAL never rolled over to a new segment")
	}
	if wantSnapshot && (len(snaps) < 2 || len(snapFiles) < 1) {
		t.Errorf("the member took no snapshot (%d snapshot records in the WAL, %d files in member/snap)", len(snaps), len(snapFiles))
	}
}
