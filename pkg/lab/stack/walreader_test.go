package stack_test

import (
	"context"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// With LabWAL the laboratory reads pods from the embedded member's
// write-ahead log, in a process of its own that joins nothing: the hollow
// nodes find a new pod there and bind and run it, and the benchmark's
// watch sees it created and then running, as through the learner.
func TestTheReaderOfTheWriteAheadLogServesTheHollowNodesAndTheBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver, hollow nodes and the reader")
	}
	// The reader is the default, named by no option.
	st, err := stack.Start(stack.Config{BinDir: stacktest.BinDir(t), Dir: t.TempDir(), Nodes: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	if st.LabReaderName() != stack.LabWAL {
		t.Fatalf("a stack given no LabReader reads with %q, want the write-ahead log's reader, %q", st.LabReaderName(), stack.LabWAL)
	}
	if st.HasLearner() {
		t.Errorf("a stack read through the write-ahead log also has a learner, which its members pay for")
	}
	ctx := api.NewDefaultContext()
	_, w, err := etcdpods.ListAndWatch(ctx, st.LabPods(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true})
	if err != nil {
		t.Fatal(err)
	}
	pod := &api.Pod{TypeMeta: api.TypeMeta{ID: "seen"}, DesiredState: api.PodState{Manifest: api.ContainerManifest{Version: "v1beta1", Containers: []api.Container{{Name: "c", Image: "i"}}}}}
	if _, err := c.CreatePod(ctx, pod); err != nil {
		t.Fatal(err)
	}
	timeout, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	added := false
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("the reader's watch ended before the pod ran")
			}
			p, isPod := e.Object.(*api.Pod)
			if !isPod || p.ID != "seen" {
				continue
			}
			added = added || e.Type == watch.Added
			if added && p.CurrentState.Status == api.PodRunning && p.CurrentState.Host != "" {
				return
			}
		case <-timeout.Done():
			t.Fatalf("the reader never showed the pod running (seen created: %v)", added)
		}
	}
}

// The default reader is the log's where the reader can read it: a member
// the stack runs (our apiserver's embedded one, v0.4's apiserver's own),
// one of the members it starts for the apiserver, or a member of those
// started apart whose data directory it is given; and the learner where
// the apiserver stores in members started apart that it knows by address
// only.
func TestTheDefaultReaderIsTheLogsWhereItCanReadIt(t *testing.T) {
	for _, c := range []struct {
		what string
		cfg  stack.Config
		want string
	}{
		{"our apiserver, its embedded member", stack.Config{}, stack.LabWAL},
		{"external members by address", stack.Config{EtcdServers: []string{"http://127.0.0.1:4001"}}, stack.LabLearner},
		{"external members started for it", stack.Config{EtcdMembers: 3}, stack.LabWAL},
		{"external members with one to read", stack.Config{EtcdServers: []string{"http://127.0.0.1:4001"}, ReadMember: stack.ReadMember{Name: "m2", Dir: "/tmp/m2", ClientURL: "http://127.0.0.1:4001", Of: 3}}, stack.LabWAL},
		{"external members by the apiserver's flag", stack.Config{APIServerArgs: []string{"-etcd_servers=http://127.0.0.1:4001"}}, stack.LabLearner},
		{"v0.4's apiserver, its own member", stack.Config{Original: stack.OriginalStack}, stack.LabWAL},
		{"v0.4's apiserver on external members", stack.Config{Original: stack.OriginalStack, EtcdServers: []string{"http://127.0.0.1:4001"}}, stack.LabLearner},
		{"v0.4's apiserver on external members with one to read (the sweep's -etcd3)", stack.Config{Original: stack.OriginalStack, EtcdServers: []string{"http://127.0.0.1:4001"}, ReadMember: stack.ReadMember{Name: "m2", Dir: "/tmp/m2", ClientURL: "http://127.0.0.1:4001", Of: 3}}, stack.LabWAL},
	} {
		if got := stack.DefaultLabReader(c.cfg); got != c.want {
			t.Errorf("%s: the default reader is %q, want %q", c.what, got, c.want)
		}
	}
}
