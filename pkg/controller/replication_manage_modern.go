//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set.go as
// of v1.3x (manageReplicas, slowStartBatch, getPodsToDelete), applied to
// ReplicationControllers as pkg/controller/replication does. 2014:
// syncReplicationController in replication_controller.go started one
// goroutine per missing or surplus pod, with no bound and no memory.

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// manageReplicas creates or deletes pods to close the gap between the
// controller's active pods and its desired replicas, at most
// burstReplicas of them, and records what it asked for in expectations.
func (rm *ReplicationManager) manageReplicas(ctx context.Context, filteredPods []*v1.Pod, rc *v1.ReplicationController) error {
	diff := len(filteredPods) - int(*rc.Spec.Replicas)
	rcKey, err := KeyFunc(rc)
	if err != nil {
		return fmt.Errorf("couldn't get key for %#v: %v", rc, err)
	}
	if diff < 0 {
		diff *= -1
		if diff > rm.burstReplicas {
			diff = rm.burstReplicas
		}
		// Record the creates before making them: their pods may reach the
		// informer before the last call returns. A create that fails is
		// subtracted below, so a failure does not leave the controller
		// waiting five minutes for a pod that will never come.
		rm.expectations.ExpectCreations(rcKey, diff)
		glog.V(2).Infof("too few replicas for %s, need %d, creating %d", rcKey, *rc.Spec.Replicas, diff)
		// Creates go out in batches of 1, 2, 4, ... and stop at the first
		// batch with a failure: a controller whose pods are all refused
		// (quota, a sick apiserver) sends one request per sync rather than
		// 500 (history: slow-start). 2014: N goroutines at once, every
		// 10 s, for as long as the refusals last.
		initialBatchSize := SlowStartInitialBatchSize
		if rm.Without.SlowStart {
			initialBatchSize = diff
		}
		successfulCreations, err := slowStartBatch(diff, initialBatchSize, func() error {
			err := rm.podControl.CreatePods(ctx, rc.Namespace, rc.Spec.Template, rc, metav1.NewControllerRef(rc, controllerKind))
			if err != nil && isTimeout(err) {
				// The apiserver accepted the pod but did not finish in
				// time; it may yet appear. Keep expecting it: either the
				// informer sees it, or the expectations expire.
				return nil
			}
			return err
		})
		if skippedPods := diff - successfulCreations; skippedPods > 0 {
			glog.V(2).Infof("slow-start failure for %s: skipping %d creates, decrementing expectations", rcKey, skippedPods)
			for i := 0; i < skippedPods; i++ {
				rm.expectations.CreationObserved(rcKey)
			}
		}
		return err
	} else if diff > 0 {
		if diff > rm.burstReplicas {
			diff = rm.burstReplicas
		}
		glog.V(2).Infof("too many replicas for %s, need %d, deleting %d", rcKey, *rc.Spec.Replicas, diff)
		relatedPods := rm.getIndirectlyRelatedPods(rc)
		podsToDelete := filteredPods[:diff]
		if !rm.Without.RankedDeletion {
			podsToDelete = getPodsToDelete(filteredPods, relatedPods, diff)
		}
		// Expect these pods by key, so a pod seen twice on its way out
		// counts once (history: expectations).
		rm.expectations.ExpectDeletions(rcKey, getPodKeys(podsToDelete))

		// Deletes are not slow-started: a delete is cheap and rarely
		// refused, and a surplus is better gone quickly.
		errCh := make(chan error, diff)
		var wg sync.WaitGroup
		wg.Add(diff)
		for _, pod := range podsToDelete {
			go func(targetPod *v1.Pod) {
				defer wg.Done()
				if err := rm.podControl.DeletePod(ctx, rc.Namespace, targetPod.Name, rc); err != nil {
					// The pod will not go away through us: stop expecting it.
					rm.expectations.DeletionObserved(rcKey, PodKey(targetPod))
					if !apierrors.IsNotFound(err) {
						errCh <- err
					}
				}
			}(pod)
		}
		wg.Wait()
		select {
		case err := <-errCh:
			return err
		default:
		}
	}
	return nil
}

// isTimeout reports whether a create ended without an answer.
//
// Ours: besides a 504 (upstream's IsTimeout), a 202 "Working" counts: the
// 2014 apiserver answers so when a write is still running at the end of
// the client's sync timeout, and the modern client does not poll for it.
func isTimeout(err error) bool {
	s, ok := err.(apierrors.APIStatus)
	if !ok {
		return false
	}
	status := s.Status()
	return status.Reason == api.StatusReasonTimeout || status.Reason == api.StatusReasonWorking
}

// slowStartBatch calls fn count times, in batches that start at
// initialBatchSize and double after each batch without a failure. The calls
// of one batch run concurrently. It stops after the first batch with a
// failure and returns the number of successful calls and the first error.
// For 500 creates the batches are 1, 2, 4, …, 128, 245: nine round trips,
// at most 245 requests in flight.
func slowStartBatch(count int, initialBatchSize int, fn func() error) (int, error) {
	remaining := count
	successes := 0
	for batchSize := min(remaining, initialBatchSize); batchSize > 0; batchSize = min(2*batchSize, remaining) {
		errCh := make(chan error, batchSize)
		var wg sync.WaitGroup
		wg.Add(batchSize)
		for i := 0; i < batchSize; i++ {
			go func() {
				defer wg.Done()
				if err := fn(); err != nil {
					errCh <- err
				}
			}()
		}
		wg.Wait()
		curSuccesses := batchSize - len(errCh)
		successes += curSuccesses
		if len(errCh) > 0 {
			return successes, <-errCh
		}
		remaining -= batchSize
	}
	return successes, nil
}

// getIndirectlyRelatedPods returns the pods of every controller that shares
// rc's owner. Upstream, that is the ReplicaSets of one Deployment; an RC
// has no owner, so these are the pods rc itself owns, active or not.
func (rm *ReplicationManager) getIndirectlyRelatedPods(rc *v1.ReplicationController) []*v1.Pod {
	pods, err := rm.podLister.Pods(rc.Namespace).List(everything)
	if err != nil {
		return nil
	}
	var related []*v1.Pod
	for _, pod := range pods {
		if ref := metav1.GetControllerOf(pod); ref != nil && ref.UID == rc.UID {
			related = append(related, pod)
		}
	}
	return related
}

// getPodsToDelete picks diff pods of filteredPods to delete: all of them
// when diff covers them, else the first diff after ranking.
//
// 2014: the first diff pods of the list, Running or not.
func getPodsToDelete(filteredPods, relatedPods []*v1.Pod, diff int) []*v1.Pod {
	if diff < len(filteredPods) {
		podsWithRanks := getPodsRankedByRelatedPodsOnSameNode(filteredPods, relatedPods)
		sort.Sort(podsWithRanks)
	}
	return filteredPods[:diff]
}

// getPodsRankedByRelatedPodsOnSameNode ranks each pod by how many active
// related pods share its node, so deletions thin out crowded nodes first.
func getPodsRankedByRelatedPodsOnSameNode(podsToRank, relatedPods []*v1.Pod) ActivePodsWithRanks {
	podsOnNode := make(map[string]int)
	for _, pod := range relatedPods {
		if IsPodActive(pod) {
			podsOnNode[pod.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(podsToRank))
	for i, pod := range podsToRank {
		ranks[i] = podsOnNode[pod.Spec.NodeName]
	}
	return ActivePodsWithRanks{Pods: podsToRank, Rank: ranks, Now: metav1.Now()}
}

func getPodKeys(pods []*v1.Pod) []string {
	keys := make([]string, 0, len(pods))
	for _, pod := range pods {
		keys = append(keys, PodKey(pod))
	}
	return keys
}
