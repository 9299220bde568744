package walpods

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// statusOf asks the member at url what it has applied (its applied index
// and the term of the entry there), as the laboratory's reader does
// (cmd/hollow-node's -wal_commit_from).
func statusOf(t *testing.T, url string) func() (uint64, uint64, error) {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{url}, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return func() (uint64, uint64, error) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		st, err := cli.Status(ctx, url)
		if err != nil {
			return 0, 0, err
		}
		return st.RaftAppliedIndex, st.Header.RaftTerm, nil
	}
}

// TestFollowsAMemberOfThree follows each member of a cluster of three
// (Debian's etcd 3.4, as the laboratory's external clusters are) through
// pod writes sent to one of them, a reader on each member's log. In a
// cluster a member saves the commit of the last entries of a burst only
// with its next write; the readers ask their member what it has applied
// where the log has not said it, and so each reaches the cluster's last
// committed entry with no write after the burst, with every acknowledged
// write once and in order. Planted: a reader that does not ask stops
// short of the last entries, and the check names them.
func TestFollowsAMemberOfThree(t *testing.T) {
	c := etcdtest.StartCluster(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	type follower struct {
		name   string
		r      *Reader
		events []Event
	}
	var fs []*follower
	for _, m := range c.Members {
		r := NewReader(m.Dir)
		r.AskCommit(statusOf(t, m.ClientURL))
		fs = append(fs, &follower{name: m.Name, r: r})
	}
	planted := &follower{name: c.Members[0].Name + " (not asking)", r: NewReader(c.Members[0].Dir)}
	all := append(append([]*follower(nil), fs...), planted)
	poll := func(f *follower) {
		t.Helper()
		evs, _, err := f.r.Poll()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		f.events = append(f.events, evs...)
	}

	written := make(chan error, 1)
	var w *workload
	go func() {
		var err error
		w, err = write(ctx, c.Members[0].ClientURL, 200, 8)
		written <- err
	}()
	untilWritten(t, written, func() {
		for _, f := range all {
			poll(f)
		}
	})
	// Nothing writes from here on. The cluster's last committed entry,
	// as its members know it once they all have it.
	var target uint64
	for _, m := range c.Members {
		applied, _, err := statusOf(t, m.ClientURL)()
		if err != nil {
			t.Fatal(err)
		}
		target = max(target, applied)
	}
	for _, f := range fs {
		for f.r.Index() < target {
			if ctx.Err() != nil {
				t.Fatalf("%s's reader is at entry %d of the %d committed", f.name, f.r.Index(), target)
			}
			poll(f)
			time.Sleep(20 * time.Millisecond)
		}
		if problems := compareEvents(w.writes, f.events); len(problems) > 0 {
			t.Errorf("%s: the reader's %d events differ from the %d acknowledged writes in %d ways; the first: %s", f.name, len(f.events), len(w.writes), len(problems), problems[0])
		}
		t.Logf("%s: %d events, up to entry %d of %d; its member's answer committed entries the log had not said were %d times", f.name, len(f.events), f.r.Index(), target, f.r.CommitsAsked())
	}

	// The reader that does not ask, given as long again.
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		poll(planted)
	}
	if planted.r.Index() >= target {
		t.Fatalf("a reader that does not ask its member reached entry %d of %d: the log said the last commit by itself", planted.r.Index(), target)
	}
	problems := compareEvents(w.writes, planted.events)
	t.Logf("planted, a reader that does not ask: at entry %d of %d, %s", planted.r.Index(), target, summarize(problems))
}

// summarize is the first of the check's problems and their count.
func summarize(problems []string) string {
	if len(problems) == 0 {
		return "no write missing"
	}
	return fmt.Sprintf("%d problems, the first: %s", len(problems), problems[0])
}
