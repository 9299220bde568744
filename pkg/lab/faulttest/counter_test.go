package faulttest

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// TestThePodCounterCountsAPodThatChangedBeforeItStarted creates a pod and
// changes it before the counter starts, as a busy machine may let the
// manager and the hollow nodes do before the counter's watch has begun.
// The apiserver's watch from resourceVersion 0 reports such a pod as
// MODIFIED, not ADDED; the counter must count it all the same. A pod
// created afterwards shows that the counter's watch has gone past the
// first.
func TestThePodCounterCountsAPodThatChangedBeforeItStarted(t *testing.T) {
	t.Parallel()
	st := designtest.Start(t, stack.Config{NoHollowNodes: true, APIServerArgs: fastEtcd()})
	c := client.NewOrDie(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "e2e"})
	ctx := api.NewDefaultContext()
	template := appController("web", 1).DesiredState.PodTemplate
	newPod := func(id string) *api.Pod {
		return &api.Pod{TypeMeta: api.TypeMeta{ID: id}, Labels: template.Labels, DesiredState: template.DesiredState}
	}
	early, err := c.CreatePod(ctx, newPod("early"))
	if err != nil {
		t.Fatal(err)
	}
	early.Labels = map[string]string{"app": "web", "changed": "yes"}
	if _, err := c.UpdatePod(ctx, early); err != nil {
		t.Fatal(err)
	}

	counter := startPodCounter(t, c)
	if _, err := c.CreatePod(ctx, newPod("late")); err != nil {
		t.Fatal(err)
	}
	watchtest.Within(t, deadline, "the counter to see the pod created after it started", func() (bool, error) {
		return counter.has("late"), nil
	})
	if !counter.has("early") {
		t.Errorf("the counter saw the pod created after it started but never counted the one changed before")
	}
	if n := counter.count(); n != 2 {
		t.Errorf("the counter counted %d pods, want 2", n)
	}
}
