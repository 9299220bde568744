package stack_test

import (
	"context"
	"fmt"
	"os"
	"strings"
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

// The learner runs in a process of its own, so that its CPU is counted
// apart, and the laboratory sees through it a pod the apiserver stores.
func TestTheLaboratorysLearnerIsAProcessOfItsOwnThatSeesEveryPod(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver and a learner")
	}
	st, err := stack.Start(stack.Config{BinDir: stacktest.BinDir(t), Dir: t.TempDir(), NoHollowNodes: true, LabReader: stack.LabLearner})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	if !st.HasLearner() {
		t.Fatalf("a stack with LabReader %q has no learner", stack.LabLearner)
	}
	found := false
	for _, p := range st.Processes() {
		if p.Name == stack.ProcessLabReader {
			found = true
		}
	}
	if !found {
		t.Errorf("the learner is not among the stack's processes, so its CPU goes uncounted")
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
	timeout, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for {
		select {
		case e, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("the learner's watch ended before the pod came")
			}
			if p, isPod := e.Object.(*api.Pod); isPod && e.Type == watch.Added && p.ID == "seen" {
				return
			}
		case <-timeout.Done():
			t.Fatalf("the learner never showed the pod the apiserver stored")
		}
	}
}

// Reading the members directly starts no learner: the runs that price it.
func TestAStackReadingTheMembersHasNoLearner(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver")
	}
	st, err := stack.Start(stack.Config{BinDir: stacktest.BinDir(t), Dir: t.TempDir(), NoHollowNodes: true, LabReader: stack.LabMembers})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	if st.HasLearner() {
		t.Errorf("a stack reading the members has a learner")
	}
	if _, err := st.LabPods().ListPods(api.NewDefaultContext(), labels.Everything()); err != nil {
		t.Errorf("reading the members: %v", err)
	}
}

// A learner at a lower priority runs with every thread niced.
func TestALearnerAtALowerPriorityIsNiced(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an apiserver and a learner")
	}
	st, err := stack.Start(stack.Config{BinDir: stacktest.BinDir(t), Dir: t.TempDir(), NoHollowNodes: true, LabReader: stack.LabLearnerNice})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	for _, p := range st.Processes() {
		if p.Name != stack.ProcessLabReader {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid()))
		if err != nil {
			t.Skipf("no /proc: %v", err)
		}
		// After the command's closing parenthesis: state is field 3,
		// nice field 19.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(fields) < 17 || fields[16] != "10" {
			t.Errorf("the learner runs at nice %v, want 10", fields[16])
		}
		return
	}
	t.Fatalf("no learner among the stack's processes")
}

func TestAStackWithHollowNodesMustReadPods(t *testing.T) {
	_, err := stack.Start(stack.Config{BinDir: t.TempDir(), Dir: t.TempDir(), LabReader: stack.LabNone})
	if err == nil {
		t.Fatalf("a stack with hollow nodes and no reader of pods started")
	}
}
