//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/controller_utils.go and
// pkg/api/v1/pod/util.go as of v1.3x (FilterActivePods, IsPodReady,
// ActivePodsWithRanks), applied to ReplicationControllers as
// pkg/controller/replication does. 2014: pod_control.go's filterActivePods
// dropped only Terminated pods, and surplus pods were deleted in list order.

import (
	"math"
	"strconv"
	"time"

	"github.com/golang/glog"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// KeyFunc is the workqueue and expectations key of an object:
// "namespace/name".
var KeyFunc = cache.DeletionHandlingMetaNamespaceKeyFunc

// PodDeletionCost is the annotation by which a user ranks pods for
// deletion: lower cost goes first (KEP-2255, beta and on by default since
// 1.22).
const PodDeletionCost = "controller.kubernetes.io/pod-deletion-cost"

// FilterActivePods returns the pods that still count as replicas: neither
// finished (Succeeded, Failed — our Terminated) nor being deleted.
func FilterActivePods(pods []*v1.Pod) []*v1.Pod {
	var result []*v1.Pod
	for _, p := range pods {
		if IsPodActive(p) {
			result = append(result, p)
		} else {
			glog.V(4).Infof("ignoring inactive pod %s/%s in phase %q (deletion time %v)", p.Namespace, p.Name, p.Status.Phase, p.DeletionTimestamp)
		}
	}
	return result
}

// IsPodActive reports whether p still counts as a replica.
func IsPodActive(p *v1.Pod) bool {
	return v1.PodSucceeded != p.Status.Phase && v1.PodFailed != p.Status.Phase && p.DeletionTimestamp == nil
}

// getPodReadyCondition returns p's Ready condition, or nil.
func getPodReadyCondition(status *v1.PodStatus) *v1.PodCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == v1.PodReady {
			return &status.Conditions[i]
		}
	}
	return nil
}

// IsPodReady reports whether p's Ready condition is true. Our hollow nodes
// write that condition when they start a pod.
func IsPodReady(p *v1.Pod) bool {
	c := getPodReadyCondition(&p.Status)
	return c != nil && c.Status == v1.ConditionTrue
}

// IsPodAvailable reports whether p has been ready for at least
// minReadySeconds at now.
func IsPodAvailable(p *v1.Pod, minReadySeconds int32, now metav1.Time) bool {
	if !IsPodReady(p) {
		return false
	}
	c := getPodReadyCondition(&p.Status)
	minReady := time.Duration(minReadySeconds) * time.Second
	return minReadySeconds == 0 || (!c.LastTransitionTime.IsZero() && c.LastTransitionTime.Add(minReady).Before(now.Time))
}

// podReadyTime returns when p became ready, or the zero time.
func podReadyTime(p *v1.Pod) *metav1.Time {
	if c := getPodReadyCondition(&p.Status); c != nil && c.Status == v1.ConditionTrue {
		return &c.LastTransitionTime
	}
	return &metav1.Time{}
}

func maxContainerRestarts(p *v1.Pod) int {
	most := 0
	for _, c := range p.Status.ContainerStatuses {
		most = max(most, int(c.RestartCount))
	}
	return most
}

// getDeletionCostFromPodAnnotations reads the deletion cost; a missing or
// malformed value counts as 0.
func getDeletionCostFromPodAnnotations(annotations map[string]string) int32 {
	v, ok := annotations[PodDeletionCost]
	if !ok {
		return 0
	}
	cost, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(cost)
}

// podPhaseToOrdinal orders phases for deletion: a pod still starting costs
// less to lose than one running. A phase not listed (also our empty one)
// sorts with Pending.
var podPhaseToOrdinal = map[v1.PodPhase]int{v1.PodPending: 0, v1.PodUnknown: 1, v1.PodRunning: 2}

// ActivePodsWithRanks sorts pods so that the ones to delete first come
// first. Rank[i] is, for Pods[i], the number of related active pods on the
// same node. Now is the time the log-scale comparisons measure from.
type ActivePodsWithRanks struct {
	Pods []*v1.Pod
	Rank []int
	Now  metav1.Time
}

func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// Less reports whether pod i should be deleted before pod j. The tests
// run in order and the first that tells the two apart decides. The 2015
// manager had only the first three; the deletion cost came with 1.21, and
// comparing times on a log2 scale, with the UID breaking ties so that
// equally old pods are chosen at random, in 2021 (KEP-2185, GA in 1.31;
// history: ranked-deletion).
func (s ActivePodsWithRanks) Less(i, j int) bool {
	pi, pj := s.Pods[i], s.Pods[j]
	// 1. Unscheduled before scheduled.
	if pi.Spec.NodeName != pj.Spec.NodeName && (len(pi.Spec.NodeName) == 0 || len(pj.Spec.NodeName) == 0) {
		return len(pi.Spec.NodeName) == 0
	}
	// 2. Pending before Unknown before Running.
	if podPhaseToOrdinal[pi.Status.Phase] != podPhaseToOrdinal[pj.Status.Phase] {
		return podPhaseToOrdinal[pi.Status.Phase] < podPhaseToOrdinal[pj.Status.Phase]
	}
	// 3. Not ready before ready.
	if IsPodReady(pi) != IsPodReady(pj) {
		return !IsPodReady(pi)
	}
	// 4. Lower deletion cost first.
	if ci, cj := getDeletionCostFromPodAnnotations(pi.Annotations), getDeletionCostFromPodAnnotations(pj.Annotations); ci != cj {
		return ci < cj
	}
	// 5. More related pods on the same node first, to spread survivors.
	if s.Rank[i] != s.Rank[j] {
		return s.Rank[i] > s.Rank[j]
	}
	// 6. Both ready: ready more recently first, on a log scale.
	if IsPodReady(pi) && IsPodReady(pj) {
		ri, rj := podReadyTime(pi), podReadyTime(pj)
		if !ri.Equal(rj) {
			return s.newerOnLogScale(ri, rj, pi, pj)
		}
	}
	// 7. More container restarts first.
	if ri, rj := maxContainerRestarts(pi), maxContainerRestarts(pj); ri != rj {
		return ri > rj
	}
	// 8. Created more recently first, on a log scale.
	if !pi.CreationTimestamp.Equal(&pj.CreationTimestamp) {
		return s.newerOnLogScale(&pi.CreationTimestamp, &pj.CreationTimestamp, pi, pj)
	}
	return false
}

// newerOnLogScale reports whether t1 (of pod pi) counts as newer than t2
// (of pj): times in the same power-of-two bucket of age are equal, and the
// UID decides between them. Without a Now, or with a zero time, the exact
// times decide.
func (s ActivePodsWithRanks) newerOnLogScale(t1, t2 *metav1.Time, pi, pj *v1.Pod) bool {
	if s.Now.IsZero() || t1.IsZero() || t2.IsZero() {
		return afterOrZero(t1, t2)
	}
	diff := logarithmicRankDiff(*t1, *t2, s.Now)
	if diff == 0 {
		return pi.UID < pj.UID
	}
	return diff < 0
}

// afterOrZero reports whether t1 is after t2, a zero time counting as the
// newest of all.
func afterOrZero(t1, t2 *metav1.Time) bool {
	if t1.Time.IsZero() || t2.Time.IsZero() {
		return t1.Time.IsZero()
	}
	return t1.After(t2.Time)
}

// logarithmicRankDiff compares the ages of t1 and t2 at now in whole powers
// of two of nanoseconds: negative when t1 is younger by at least one power.
func logarithmicRankDiff(t1, t2, now metav1.Time) int64 {
	d1 := now.Sub(t1.Time)
	d2 := now.Sub(t2.Time)
	r1, r2 := int64(-1), int64(-1)
	if d1 > 0 {
		r1 = int64(math.Log2(float64(d1)))
	}
	if d2 > 0 {
		r2 = int64(math.Log2(float64(d2)))
	}
	return r1 - r2
}
