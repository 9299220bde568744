package sampler

import (
	"context"
	"fmt"
	"testing"
	"time"

	kwatch "k8s.io/apimachinery/pkg/watch"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

// TestAV1PodIsCountedInTheStateItsStatusSays: KWOK's phase Running is
// running, a pod without a node is unscheduled, a bound one not yet
// running is waiting, and a pod that ended or is being deleted is
// terminated, as a replication manager no longer counts it.
func TestAV1PodIsCountedInTheStateItsStatusSays(t *testing.T) {
	now := metav1.Now()
	for _, tc := range []struct {
		name string
		pod  v1.Pod
		want string
	}{
		{"unscheduled", v1.Pod{Status: v1.PodStatus{Phase: v1.PodPending}}, StateUnscheduled},
		{"bound", v1.Pod{Spec: v1.PodSpec{NodeName: "kwok-node-0"}, Status: v1.PodStatus{Phase: v1.PodPending}}, StateWaiting},
		{"running", v1.Pod{Spec: v1.PodSpec{NodeName: "kwok-node-0"}, Status: v1.PodStatus{Phase: v1.PodRunning}}, StateRunning},
		{"succeeded", v1.Pod{Spec: v1.PodSpec{NodeName: "kwok-node-0"}, Status: v1.PodStatus{Phase: v1.PodSucceeded}}, StateTerminated},
		{"failed", v1.Pod{Spec: v1.PodSpec{NodeName: "kwok-node-0"}, Status: v1.PodStatus{Phase: v1.PodFailed}}, StateTerminated},
		{"being deleted", v1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: &now}, Spec: v1.PodSpec{NodeName: "kwok-node-0"}, Status: v1.PodStatus{Phase: v1.PodRunning}}, StateTerminated},
	} {
		if got := stateOf(PodOfV1(&tc.pod)); got != tc.want {
			t.Errorf("%s: counted %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestTheCounterFollowsTodaysPods: the pod counter lists and watches v1
// pods as it does ours, and sees a pod created and then running.
func TestTheCounterFollowsTodaysPods(t *testing.T) {
	c := fake.NewSimpleClientset(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}, Spec: v1.PodSpec{NodeName: "n"}, Status: v1.PodStatus{Phase: v1.PodRunning}})
	counter := NewPodCounter(nil, labels.Everything()).readingFrom(V1Pods(c, "default"))
	stopCh := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); counter.Run(stopCh) }()
	defer func() { close(stopCh); <-done }()
	eventually(t, "the first list", func() bool { return counter.Synced() })
	if got := counter.Counts(); got.Running != 1 || got.Active != 1 {
		t.Fatalf("after the list: %+v, want the one pod running", got)
	}
	ctx := context.Background()
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}}
	if _, err := c.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "pod b created, unscheduled", func() bool { c := counter.Counts(); return c.Created == 1 && c.Unscheduled == 1 })
	pod.Spec.NodeName, pod.Status.Phase = "n", v1.PodRunning
	if _, err := c.CoreV1().Pods("default").Update(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "pod b running", func() bool { return counter.Counts().Running == 2 })
	if err := c.CoreV1().Pods("default").Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "pod a deleted", func() bool { c := counter.Counts(); return c.Deleted == 1 && c.Active == 1 })
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not seen within 30 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTheV1WatchNeverHoldsTheApiserverBack: the counter's watch of
// today's apiserver takes every event as it comes, however far behind
// the counter is, and delivers each once and in order: 3 000 events, three
// times what a reader could leave waiting in a buffer of 1 000, are all
// sent before the counter reads the first. Delivering each event as it is
// read instead (the stream waiting on the counter) fails it.
func TestTheV1WatchNeverHoldsTheApiserverBack(t *testing.T) {
	fw := kwatch.NewFake()
	w := &v1Watch{result: make(chan watch.Event), ctx: context.Background(), cancel: func() {}}
	go w.run(fw)
	const n = 3000
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for i := 0; i < n; i++ {
			fw.Add(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i)}})
		}
		fw.Stop()
	}()
	select {
	case <-sent:
	case <-time.After(time.Minute):
		t.Fatal("the apiserver's stream waited on a counter that had read nothing")
	}
	i := 0
	for e := range w.ResultChan() {
		if got, want := e.Object.(*api.Pod).ID, fmt.Sprintf("p%d", i); got != want {
			t.Fatalf("event %d is %s, want %s", i, got, want)
		}
		i++
	}
	if i != n {
		t.Errorf("delivered %d events, want %d", i, n)
	}
}
