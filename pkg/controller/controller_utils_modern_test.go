//go:build modern

package controller

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clocktesting "k8s.io/utils/clock/testing"
)

func TestSlowStartBatchDoublesUntilABatchFails(t *testing.T) {
	for _, tc := range []struct {
		name          string
		count, failAt int
		wantCalls     int
		wantSuccesses int
	}{
		{"no failure, 10 calls in batches 1 2 4 3", 10, 0, 10, 10},
		{"no failure, 500 calls", 500, 0, 500, 500},
		{"failure in the first batch", 10, 1, 1, 0},
		{"failure in the batch of 4 stops before the batch of 3", 10, 4, 7, 3},
		{"nothing to do", 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			calls := 0
			successes, err := slowStartBatch(tc.count, SlowStartInitialBatchSize, func() error {
				mu.Lock()
				defer mu.Unlock()
				calls++
				if tc.failAt > 0 && calls >= tc.failAt {
					return errors.New("refused")
				}
				return nil
			})
			if calls != tc.wantCalls || successes != tc.wantSuccesses {
				t.Errorf("%d calls, %d successes; want %d and %d", calls, successes, tc.wantCalls, tc.wantSuccesses)
			}
			if (err != nil) != (tc.failAt > 0) {
				t.Errorf("error %v", err)
			}
		})
	}
}

func TestSlowStartBatchRunsABatchConcurrently(t *testing.T) {
	var mu sync.Mutex
	inFlight, peak := 0, 0
	release := make(chan struct{})
	go func() {
		// The batches are 1, 2, 4, 8: let each batch fill before freeing it.
		for _, size := range []int{1, 2, 4, 8} {
			for {
				mu.Lock()
				n := inFlight
				mu.Unlock()
				if n == size {
					break
				}
				time.Sleep(time.Millisecond)
			}
			for i := 0; i < size; i++ {
				release <- struct{}{}
			}
		}
	}()
	slowStartBatch(15, 1, func() error {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		mu.Unlock()
		<-release
		mu.Lock()
		inFlight--
		mu.Unlock()
		return nil
	})
	if peak != 8 {
		t.Errorf("peak of %d calls in flight, want 8", peak)
	}
}

func rankedPod(name string, mutate func(p *v1.Pod)) *v1.Pod {
	p := newPod(name, nil)
	mutate(p)
	return p
}

func TestActivePodsWithRanksPutsPodsToDeleteFirst(t *testing.T) {
	now := metav1.Now()
	ago := func(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(-d)) }
	for _, tc := range []struct {
		name        string
		first, then *v1.Pod
		rankFirst   int
		rankThen    int
	}{
		{"unscheduled before scheduled",
			rankedPod("a", func(p *v1.Pod) { p.Spec.NodeName = "" }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
		{"pending before running",
			rankedPod("a", func(p *v1.Pod) { p.Status.Phase = v1.PodPending }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
		{"unknown before running",
			rankedPod("a", func(p *v1.Pod) { p.Status.Phase = v1.PodUnknown }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
		{"not ready before ready",
			rankedPod("a", func(p *v1.Pod) { p.Status.Conditions = nil }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
		{"lower deletion cost first",
			rankedPod("a", func(p *v1.Pod) { p.Annotations = map[string]string{PodDeletionCost: "-5"} }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
		{"more co-located related pods first",
			rankedPod("a", func(p *v1.Pod) {}), rankedPod("b", func(p *v1.Pod) {}), 3, 1},
		{"ready much more recently first",
			rankedPod("a", func(p *v1.Pod) { p.Status.Conditions[0].LastTransitionTime = ago(time.Minute) }),
			rankedPod("b", func(p *v1.Pod) { p.Status.Conditions[0].LastTransitionTime = ago(10 * time.Hour) }), 0, 0},
		{"more restarts first",
			rankedPod("a", func(p *v1.Pod) { p.Status.ContainerStatuses = []v1.ContainerStatus{{RestartCount: 3}} }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
		{"created much more recently first",
			rankedPod("a", func(p *v1.Pod) { p.CreationTimestamp = ago(time.Minute) }), rankedPod("b", func(p *v1.Pod) {}), 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// UIDs that would put the pods the other way round, so that
			// only the rule under test can order them.
			tc.first.UID, tc.then.UID = "zz", "aa"
			s := ActivePodsWithRanks{Pods: []*v1.Pod{tc.first, tc.then}, Rank: []int{tc.rankFirst, tc.rankThen}, Now: now}
			if !s.Less(0, 1) || s.Less(1, 0) {
				t.Errorf("%s should sort before %s", tc.first.Name, tc.then.Name)
			}
		})
	}
}

func TestPodsOfAlmostTheSameAgeAreOrderedByUIDNotByExactAge(t *testing.T) {
	now := metav1.Now()
	// 64 and 65 minutes old: the same power of two of nanoseconds.
	older := rankedPod("older", func(p *v1.Pod) { p.CreationTimestamp = metav1.NewTime(now.Add(-65 * time.Minute)); p.UID = "a" })
	newer := rankedPod("newer", func(p *v1.Pod) { p.CreationTimestamp = metav1.NewTime(now.Add(-64 * time.Minute)); p.UID = "b" })
	s := ActivePodsWithRanks{Pods: []*v1.Pod{newer, older}, Rank: []int{0, 0}, Now: now}
	if s.Less(0, 1) || !s.Less(1, 0) {
		t.Error("within one log2 bucket the lower UID goes first, even if it is the older pod")
	}
	exact := ActivePodsWithRanks{Pods: []*v1.Pod{newer, older}, Rank: []int{0, 0}}
	if !exact.Less(0, 1) {
		t.Error("without Now the newer pod goes first")
	}
}

func TestGetPodsToDeleteSpreadsSurvivorsAcrossNodes(t *testing.T) {
	rc := newRC(2)
	var pods []*v1.Pod
	for i, node := range []string{"crowded", "crowded", "crowded", "alone"} {
		p := newPod(fmt.Sprintf("p%d", i), rc)
		p.Spec.NodeName = node
		pods = append(pods, p)
	}
	got := getPodsToDelete(pods, pods, 2)
	var nodes []string
	for _, p := range got {
		nodes = append(nodes, p.Spec.NodeName)
	}
	sort.Strings(nodes)
	if fmt.Sprint(nodes) != "[crowded crowded]" {
		t.Errorf("deleted from nodes %v, want two from the crowded node", nodes)
	}
}

func TestFilterActivePodsDropsFinishedPods(t *testing.T) {
	failed := rankedPod("failed", func(p *v1.Pod) { p.Status.Phase = v1.PodFailed })
	done := rankedPod("done", func(p *v1.Pod) { p.Status.Phase = v1.PodSucceeded })
	going := rankedPod("going", func(p *v1.Pod) { ts := metav1.Now(); p.DeletionTimestamp = &ts })
	running := rankedPod("running", func(p *v1.Pod) {})
	pending := rankedPod("pending", func(p *v1.Pod) { p.Status.Phase = v1.PodPending })
	got := FilterActivePods([]*v1.Pod{failed, done, going, running, pending})
	if len(got) != 2 || got[0].Name != "running" || got[1].Name != "pending" {
		t.Errorf("active pods %v", got)
	}
}

func TestExpectationsExpireAfterFiveMinutes(t *testing.T) {
	clock := clocktesting.NewFakeClock(time.Now())
	e := NewUIDTrackingControllerExpectations(&ControllerExpectations{Store: NewControllerExpectations().Store, clock: clock})
	e.ExpectCreations("default/foo", 3)
	if e.SatisfiedExpectations("default/foo") {
		t.Fatal("fresh unmet expectations must hold the controller back")
	}
	clock.Step(ExpectationsTimeout)
	if e.SatisfiedExpectations("default/foo") {
		t.Fatal("expectations expired early: exactly ExpectationsTimeout old, they still hold")
	}
	clock.Step(time.Nanosecond)
	if !e.SatisfiedExpectations("default/foo") {
		t.Fatal("expectations older than ExpectationsTimeout must let the controller act")
	}
	if adds, _ := e.pending(); adds != 0 {
		t.Errorf("expired expectations still reported as %d pending creates", adds)
	}
}

func TestExpectationsOfAnUnknownControllerAreSatisfied(t *testing.T) {
	e := NewUIDTrackingControllerExpectations(NewControllerExpectations())
	if !e.SatisfiedExpectations("default/never-seen") {
		t.Error("a controller without a record must sync")
	}
	e.ExpectDeletions("default/foo", []string{"default/a", "default/b"})
	e.DeletionObserved("default/foo", "default/c")
	e.DeletionObserved("default/foo", "default/a")
	e.DeletionObserved("default/foo", "default/a")
	if e.SatisfiedExpectations("default/foo") {
		t.Error("an unexpected pod or a repeated delete must not count")
	}
	e.DeletionObserved("default/foo", "default/b")
	if !e.SatisfiedExpectations("default/foo") {
		t.Error("both expected deletes seen")
	}
	e.DeleteExpectations("default/foo")
	if uids := e.GetUIDs("default/foo"); uids != nil {
		t.Errorf("pod keys survived DeleteExpectations: %v", uids)
	}
}

// TestEachRankingRuleOutranksEveryRuleAfterIt: for each rule of Less, the
// pod that wins it and loses every later rule still goes first, and the
// other does not. A rule that stopped deciding would hand the pair to a
// later one, which says the opposite.
func TestEachRankingRuleOutranksEveryRuleAfterIt(t *testing.T) {
	now := metav1.Now()
	ago := func(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(-d)) }
	// Each rule's winning and losing change to a running, ready,
	// scheduled pod created and ready an hour ago.
	rules := []struct {
		name      string
		win, lose func(p *v1.Pod, rank *int)
	}{
		{"unscheduled", func(p *v1.Pod, _ *int) { p.Spec.NodeName = "" }, func(p *v1.Pod, _ *int) {}},
		{"pending", func(p *v1.Pod, _ *int) { p.Status.Phase = v1.PodPending }, func(p *v1.Pod, _ *int) {}},
		{"not ready", func(p *v1.Pod, _ *int) { p.Status.Conditions[0].Status = v1.ConditionFalse }, func(p *v1.Pod, _ *int) {}},
		{"lower deletion cost", func(p *v1.Pod, _ *int) { p.Annotations = map[string]string{PodDeletionCost: "-5"} }, func(p *v1.Pod, _ *int) {}},
		{"more co-located pods", func(_ *v1.Pod, rank *int) { *rank = 3 }, func(_ *v1.Pod, rank *int) { *rank = 1 }},
		{"ready more recently", func(p *v1.Pod, _ *int) { p.Status.Conditions[0].LastTransitionTime = ago(time.Minute) },
			func(p *v1.Pod, _ *int) { p.Status.Conditions[0].LastTransitionTime = ago(10 * time.Hour) }},
		{"more restarts", func(p *v1.Pod, _ *int) { p.Status.ContainerStatuses = []v1.ContainerStatus{{RestartCount: 3}} }, func(p *v1.Pod, _ *int) {}},
		{"created more recently", func(p *v1.Pod, _ *int) { p.CreationTimestamp = ago(time.Minute) },
			func(p *v1.Pod, _ *int) { p.CreationTimestamp = ago(10 * time.Hour) }},
	}
	for k, rule := range rules {
		t.Run(rule.name, func(t *testing.T) {
			first, then := newPod("first", nil), newPod("then", nil)
			// UIDs that would put the pods the other way round.
			first.UID, then.UID = "zz", "aa"
			firstRank, thenRank := 0, 0
			rule.win(first, &firstRank)
			rule.lose(then, &thenRank)
			for _, later := range rules[k+1:] {
				later.lose(first, &firstRank)
				later.win(then, &thenRank)
			}
			s := ActivePodsWithRanks{Pods: []*v1.Pod{first, then}, Rank: []int{firstRank, thenRank}, Now: now}
			if !s.Less(0, 1) || s.Less(1, 0) {
				t.Errorf("the pod %s should go first whatever the later rules say", rule.name)
			}
		})
	}
}

// TestAgesCompareInWholePowersOfTwo: logarithmicRankDiff is negative when
// its first time is younger by at least one power of two of nanoseconds,
// zero within one, and counts every time at or after now as younger than
// any before it (a clock that runs ahead makes such times).
func TestAgesCompareInWholePowersOfTwo(t *testing.T) {
	now := metav1.Now()
	at := func(d time.Duration) metav1.Time { return metav1.NewTime(now.Add(d)) }
	for _, tc := range []struct {
		name   string
		t1, t2 metav1.Time
		want   int64
	}{
		{"an hour against ten", at(-time.Hour), at(-10 * time.Hour), -4},
		{"ten hours against one", at(-10 * time.Hour), at(-time.Hour), 4},
		{"64 and 65 minutes", at(-64 * time.Minute), at(-65 * time.Minute), 0},
		{"in the future against a nanosecond ago", at(time.Hour), at(-time.Nanosecond), -1},
		{"a nanosecond ago against the future", at(-time.Nanosecond), at(time.Hour), 1},
		{"now against the future", now, at(time.Hour), 0},
		{"the future against now", at(time.Hour), now, 0},
	} {
		if got := logarithmicRankDiff(tc.t1, tc.t2, now); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
