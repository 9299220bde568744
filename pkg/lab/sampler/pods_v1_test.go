package sampler

import (
	"context"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/labels"
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
