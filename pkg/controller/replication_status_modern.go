//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set_utils.go
// as of v1.3x (calculateStatus, updateReplicaSetStatus), applied to
// ReplicationControllers as pkg/controller/replication does. 2014: the
// manager wrote no status; the apiserver counted matching pods into
// currentState.replicas on every read (history: status-writes).

import (
	"context"
	"fmt"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// everything selects every pod.
var everything = labels.Everything()

// calculateStatus returns rc's status for the pods it owns: how many,
// how many carry all the template's labels, how many are ready and
// available, and a ReplicaFailure condition while creates or deletes fail.
func calculateStatus(rc *v1.ReplicationController, filteredPods []*v1.Pod, manageReplicasErr error) v1.ReplicationControllerStatus {
	newStatus := rc.Status
	fullyLabeledReplicasCount := 0
	readyReplicasCount := 0
	availableReplicasCount := 0
	templateLabel := labels.Set(rc.Spec.Template.Labels).AsSelectorPreValidated()
	now := metav1.Now()
	for _, pod := range filteredPods {
		if templateLabel.Matches(labels.Set(pod.Labels)) {
			fullyLabeledReplicasCount++
		}
		if IsPodReady(pod) {
			readyReplicasCount++
			if IsPodAvailable(pod, rc.Spec.MinReadySeconds, now) {
				availableReplicasCount++
			}
		}
	}

	failureCond := getCondition(rc.Status, v1.ReplicationControllerReplicaFailure)
	if manageReplicasErr != nil && failureCond == nil {
		var reason string
		if diff := len(filteredPods) - int(*rc.Spec.Replicas); diff < 0 {
			reason = "FailedCreate"
		} else if diff > 0 {
			reason = "FailedDelete"
		}
		setCondition(&newStatus, v1.ReplicationControllerCondition{
			Type:               v1.ReplicationControllerReplicaFailure,
			Status:             v1.ConditionTrue,
			LastTransitionTime: metav1.Now(),
			Reason:             reason,
			Message:            manageReplicasErr.Error(),
		})
	} else if manageReplicasErr == nil && failureCond != nil {
		removeCondition(&newStatus, v1.ReplicationControllerReplicaFailure)
	}

	newStatus.Replicas = int32(len(filteredPods))
	newStatus.FullyLabeledReplicas = int32(fullyLabeledReplicasCount)
	newStatus.ReadyReplicas = int32(readyReplicasCount)
	newStatus.AvailableReplicas = int32(availableReplicasCount)
	return newStatus
}

// updateReplicationControllerStatus writes newStatus unless it equals rc's
// and rc's generation has been observed: an unchanged controller costs no
// request. A failed write is retried once, on a freshly read controller.
//
// Ours: the comparison leaves out replicas. Our apiserver, as v0.4's did,
// fills currentState.replicas on every read and watch event with its own
// count of the pods the selector matches, whatever their state or owner.
// The manager writes its count (active pods it owns), but reads never show
// it back, so comparing it would find a difference wherever the two counts
// disagree — a finished pod still matching, an orphan not yet adopted —
// and write, see the event, and write again without end. The other status
// fields are the manager's alone; fullyLabeledReplicas moves with its count
// of pods in all but odd cases (pods missing template labels).
//
// Ours: upstream writes the status subresource (PUT .../status), which
// leaves the spec alone. The 2014 apiserver has none, so the whole
// controller goes back with a PUT guarded by its resourceVersion, as the
// 2015 manager did. A conflict (someone resized it meanwhile) leads to the
// GET and a second PUT that keeps their spec and sets our status.
func updateReplicationControllerStatus(ctx context.Context, c client.ReplicationControllerInterface, rc *v1.ReplicationController, newStatus v1.ReplicationControllerStatus) (*v1.ReplicationController, error) {
	if rc.Status.FullyLabeledReplicas == newStatus.FullyLabeledReplicas &&
		rc.Status.ReadyReplicas == newStatus.ReadyReplicas &&
		rc.Status.AvailableReplicas == newStatus.AvailableReplicas &&
		rc.Generation == rc.Status.ObservedGeneration &&
		conditionsEqual(rc.Status.Conditions, newStatus.Conditions) {
		return rc, nil
	}
	// The generation this status describes; spec changes raise it.
	newStatus.ObservedGeneration = rc.Generation

	nsCtx := api.WithNamespace(ctx, rc.Namespace)
	var updateErr error
	for i := 0; ; i++ {
		glog.V(4).Infof("updating status of %s/%s: replicas %d->%d, fullyLabeled %d->%d, ready %d->%d, available %d->%d, observedGeneration %d->%d",
			rc.Namespace, rc.Name,
			rc.Status.Replicas, newStatus.Replicas, rc.Status.FullyLabeledReplicas, newStatus.FullyLabeledReplicas,
			rc.Status.ReadyReplicas, newStatus.ReadyReplicas, rc.Status.AvailableReplicas, newStatus.AvailableReplicas,
			rc.Status.ObservedGeneration, newStatus.ObservedGeneration)
		rc.Status = newStatus
		statusWrites.Inc()
		updated, err := c.UpdateReplicationController(nsCtx, conversion.ReplicationControllerFromV1(rc))
		if err == nil {
			return conversion.ReplicationControllerToV1(updated), nil
		}
		updateErr = err
		if i >= statusUpdateRetries {
			break
		}
		// If the GET fails too, its error says more than the write's.
		fresh, getErr := c.GetReplicationController(nsCtx, rc.Name)
		if getErr != nil {
			return nil, getErr
		}
		rc = conversion.ReplicationControllerToV1(fresh)
	}
	return nil, fmt.Errorf("writing the status of %s/%s: %v", rc.Namespace, rc.Name, updateErr)
}

func getCondition(status v1.ReplicationControllerStatus, condType v1.ReplicationControllerConditionType) *v1.ReplicationControllerCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == condType {
			return &status.Conditions[i]
		}
	}
	return nil
}

// setCondition adds or replaces a condition, keeping the transition time
// when the status did not change.
func setCondition(status *v1.ReplicationControllerStatus, condition v1.ReplicationControllerCondition) {
	current := getCondition(*status, condition.Type)
	if current != nil && current.Status == condition.Status && current.Reason == condition.Reason {
		return
	}
	if current != nil && current.Status == condition.Status {
		condition.LastTransitionTime = current.LastTransitionTime
	}
	newConditions := filterOutCondition(status.Conditions, condition.Type)
	status.Conditions = append(newConditions, condition)
}

func removeCondition(status *v1.ReplicationControllerStatus, condType v1.ReplicationControllerConditionType) {
	status.Conditions = filterOutCondition(status.Conditions, condType)
}

func filterOutCondition(conditions []v1.ReplicationControllerCondition, condType v1.ReplicationControllerConditionType) []v1.ReplicationControllerCondition {
	var out []v1.ReplicationControllerCondition
	for _, c := range conditions {
		if c.Type != condType {
			out = append(out, c)
		}
	}
	return out
}

// conditionsEqual compares conditions by value; times compare as instants,
// whatever their location.
func conditionsEqual(a, b []v1.ReplicationControllerCondition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastTransitionTime.Equal(&y.LastTransitionTime) {
			return false
		}
	}
	return true
}
