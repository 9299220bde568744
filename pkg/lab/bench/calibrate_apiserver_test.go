package bench

import (
	"context"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// The calibration measures the apiserver alone: a learner would cost its
// embedded member a follower's share of every write.
func TestTheCalibrationsApiserverHasNoLearnerInItsCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver")
	}
	for _, flag := range []string{"", stack.LabMembers} {
		if got := calibrationReader(flag); got != stack.LabNone {
			t.Errorf("with -lab_reader=%q the calibration reads its apiserver by %q, want %q", flag, got, stack.LabNone)
		}
	}
	st, err := stack.Start(bareAPIServer(stacktest.BinDir(t), t.TempDir(), calibrationReader("")))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	if st.HasLearner() {
		t.Errorf("the calibration's stack runs the laboratory's learner")
	}
	c, err := clientv3.New(clientv3.Config{Endpoints: st.EtcdURLs(), DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	members, err := c.MemberList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members.Members {
		if m.IsLearner {
			t.Errorf("the calibration's etcd cluster has a learner, %q at %v", m.Name, m.PeerURLs)
		}
	}
	if len(members.Members) != 1 {
		t.Errorf("the calibration's etcd cluster has %d members, want the apiserver's own alone", len(members.Members))
	}
}

// The reader's pairs share one apiserver: the reader's process stands
// stopped through each level without it and reads through each level with
// it, caught up at the end, and the order alternates.
func TestTheReadersPairsStopItForTheLevelsWithoutIt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pairs, err := readerPairs(ctx, stacktest.BinDir(t), t.TempDir(), 2, 8, 200*time.Millisecond, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 2 || pairs[0].WithFirst || !pairs[1].WithFirst {
		t.Fatalf("%d pairs, the first with the reader first %v, the second %v; want 2, without first then with first", len(pairs), len(pairs) > 0 && pairs[0].WithFirst, len(pairs) > 1 && pairs[1].WithFirst)
	}
	for i, p := range pairs {
		if p.Without.Requests == 0 || p.With.Requests == 0 {
			t.Errorf("pair %d: %d pods created without the reader and %d with it, want some of each", i+1, p.Without.Requests, p.With.Requests)
		}
		if p.ReaderCPUWithout > 0.005 {
			t.Errorf("pair %d: the reader's process used %.3f CPU s over the level without it, where it stood stopped", i+1, p.ReaderCPUWithout)
		}
		if r := p.With.Reader; r == nil || !r.CaughtUp || r.CPU <= 0 {
			t.Errorf("pair %d: the level with the reader says of it %+v, want it caught up, with CPU of its own", i+1, r)
		}
		if p.Without.Reader != nil {
			t.Errorf("pair %d: the level without the reader says what the reader did", i+1)
		}
	}
}
