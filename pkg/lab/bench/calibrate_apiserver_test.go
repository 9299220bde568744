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
