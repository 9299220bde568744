package sampler

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	kwatch "k8s.io/apimachinery/pkg/watch"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
		if got := stateOf(etcdpods.PodOfV1(&tc.pod)); got != tc.want {
			t.Errorf("%s: counted %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestTheCounterFollowsTodaysPods: the pod counter lists and watches v1
// pods as it does ours, and sees a pod created and then running.
func TestTheCounterFollowsTodaysPods(t *testing.T) {
	c := fake.NewSimpleClientset(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}, Spec: v1.PodSpec{NodeName: "n"}, Status: v1.PodStatus{Phase: v1.PodRunning}})
	counter := runCounter(t, V1Pods(c, "default"))
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

// runCounter runs a pod counter of src until the test ends, once it has
// read its first list.
func runCounter(t *testing.T, src etcdpods.Pods) *PodCounter {
	counter := NewPodCounter(nil, labels.Everything()).readingFrom(src)
	stopCh := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); counter.Run(stopCh) }()
	t.Cleanup(func() { close(stopCh); <-done })
	eventually(t, "the first list", func() bool { return counter.Synced() })
	return counter
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
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Once the stream ends the watch is taken up again, on a stream that
	// brings nothing.
	c := fake.NewSimpleClientset()
	c.PrependWatchReactor("pods", func(k8stesting.Action) (bool, kwatch.Interface, error) {
		return true, kwatch.NewFake(), nil
	})
	w := &v1Watch{result: make(chan watch.Event), ctx: ctx, cancel: cancel, pods: &v1Pods{c: c, ns: "default"}}
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
	for i := 0; i < n; i++ {
		select {
		case e := <-w.ResultChan():
			if got, want := e.Object.(*api.Pod).ID, fmt.Sprintf("p%d", i); got != want {
				t.Fatalf("event %d is %s, want %s", i, got, want)
			}
		case <-time.After(time.Minute):
			t.Fatalf("delivered %d events, want %d", i, n)
		}
	}
	select {
	case e, open := <-w.ResultChan():
		if open {
			t.Errorf("an event more than was sent: %+v", e)
		}
	case <-time.After(100 * time.Millisecond):
	}
}

// watchesOf answers the pod watches of c with streams, in turn, and
// records the version each was asked to start from; a nil stream answers
// 410, the version being too old.
func watchesOf(c *fake.Clientset, streams ...*kwatch.FakeWatcher) *[]string {
	var from []string
	var mu sync.Mutex
	c.PrependWatchReactor("pods", func(a k8stesting.Action) (bool, kwatch.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		from = append(from, a.(k8stesting.WatchAction).GetWatchRestrictions().ResourceVersion)
		if len(streams) == 0 {
			return true, kwatch.NewFake(), nil
		}
		s := streams[0]
		streams = streams[1:]
		if s == nil {
			return true, nil, apierrors.NewResourceExpired("too old resource version")
		}
		return true, s, nil
	})
	return &from
}

func v1Pod(name, version, phase string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", ResourceVersion: version}, Spec: v1.PodSpec{NodeName: "n"}, Status: v1.PodStatus{Phase: v1.PodPhase(phase)}}
}

// TestAWatchTheApiserverEndsIsTakenUpWhereItWas: kube-apiserver ends a
// watch whose reader is slow to take its events; the counter watches
// again from the last version it saw, a bookmark's included, and lists
// nothing again. Listing again instead, as the counter did, fails it.
func TestAWatchTheApiserverEndsIsTakenUpWhereItWas(t *testing.T) {
	c := fake.NewSimpleClientset()
	first, second := kwatch.NewFakeWithChanSize(10, false), kwatch.NewFakeWithChanSize(10, false)
	from := watchesOf(c, first, second)
	src := V1Pods(c, "default")
	counter := runCounter(t, src)

	first.Add(v1Pod("a", "5", "Running"))
	first.Action(kwatch.Bookmark, &v1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "7"}})
	first.Stop()
	second.Add(v1Pod("b", "9", "Running"))
	eventually(t, "both pods running", func() bool { return counter.Counts().Running == 2 })
	if got := counter.Counts(); got.Created != 2 {
		t.Errorf("counted %+v, want two pods created (a bookmark is no pod)", got)
	}
	if counter.Lists() != 1 || counter.Expired() != 0 {
		t.Errorf("%d lists and %d expired watches, want the first list only", counter.Lists(), counter.Expired())
	}
	if got := src.(*v1Pods).Resumes(); got != 1 {
		t.Errorf("%d watches taken up again, want 1", got)
	}
	if len(*from) < 2 || (*from)[1] != "7" {
		t.Errorf("watches started from versions %q, want the second from the bookmark's 7", *from)
	}
}

// TestAWatchTooOldToTakeUpListsAgain: when the apiserver no longer has
// the version the watch ended at (410), the counter counts an expired
// watch and lists every pod again, as when it falls out of etcd's window.
func TestAWatchTooOldToTakeUpListsAgain(t *testing.T) {
	c := fake.NewSimpleClientset()
	first := kwatch.NewFakeWithChanSize(10, false)
	watchesOf(c, first, nil)
	counter := runCounter(t, V1Pods(c, "default"))
	first.Stop()
	eventually(t, "a second list", func() bool { return counter.Lists() == 2 })
	if counter.Expired() != 1 {
		t.Errorf("%d expired watches, want 1", counter.Expired())
	}
}
