package conversion

// Replication controllers: v1beta1's desiredState (replicas,
// replicaSelector, podTemplate) is v1's spec, and currentState is v1's
// status. The status fields past replicas exist in pkg/api only for the
// modern build (see the Ours: on api.ReplicationControllerState).

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	v1 "k8s.io/api/core/v1"
)

// ReplicationControllerToV1 converts a 2014 replication controller.
func ReplicationControllerToV1(in *api.ReplicationController) *v1.ReplicationController {
	replicas := int32(in.DesiredState.Replicas)
	template := PodTemplateToV1(&in.DesiredState.PodTemplate)
	cur := &in.CurrentState
	meta := objectMetaToV1(&in.TypeMeta, in.Labels)
	setStateAnnotation(&meta, annotationDesiredState, in.DesiredState, api.ReplicationControllerState{})
	return &v1.ReplicationController{
		ObjectMeta: meta,
		Spec: v1.ReplicationControllerSpec{
			Replicas:        &replicas,
			MinReadySeconds: int32(in.DesiredState.MinReadySeconds),
			Selector:        copyMap(in.DesiredState.ReplicaSelector),
			Template:        template,
		},
		Status: v1.ReplicationControllerStatus{
			Replicas:             int32(cur.Replicas),
			FullyLabeledReplicas: int32(cur.FullyLabeledReplicas),
			ReadyReplicas:        int32(cur.ReadyReplicas),
			AvailableReplicas:    int32(cur.AvailableReplicas),
			ObservedGeneration:   cur.ObservedGeneration,
			Conditions:           rcConditionsToV1(cur.Conditions),
		},
	}
}

// ReplicationControllerFromV1 converts a v1 replication controller back.
func ReplicationControllerFromV1(in *v1.ReplicationController) *api.ReplicationController {
	out := &api.ReplicationController{}
	out.Labels = objectMetaFromV1(&in.ObjectMeta, &out.TypeMeta)
	// A nil replicas count means 1 in v1 (its defaulting fills it in); our
	// own conversion always sets it.
	replicas := 1
	if in.Spec.Replicas != nil {
		replicas = int(*in.Spec.Replicas)
	}
	// The desiredState comes back verbatim when ReplicationControllerToV1
	// made this object (see annotationDesiredState); the modern
	// controllers never change a controller's spec.
	if !stateAnnotation(in.Annotations, annotationDesiredState, &out.DesiredState) {
		out.DesiredState = api.ReplicationControllerState{
			Replicas:        replicas,
			ReplicaSelector: copyMap(in.Spec.Selector),
			MinReadySeconds: int(in.Spec.MinReadySeconds),
		}
		if in.Spec.Template != nil {
			out.DesiredState.PodTemplate = PodTemplateFromV1(in.Spec.Template)
		}
	}
	s := &in.Status
	out.CurrentState = api.ReplicationControllerState{
		Replicas:             int(s.Replicas),
		FullyLabeledReplicas: int(s.FullyLabeledReplicas),
		ReadyReplicas:        int(s.ReadyReplicas),
		AvailableReplicas:    int(s.AvailableReplicas),
		ObservedGeneration:   s.ObservedGeneration,
		Conditions:           rcConditionsFromV1(s.Conditions),
	}
	return out
}

// PodTemplateToV1 converts a controller's pod template: its labels and its
// desiredState, which also travels verbatim as an annotation of the
// template, and so reaches every pod made from it.
func PodTemplateToV1(in *api.PodTemplate) *v1.PodTemplateSpec {
	pod := PodToV1(&api.Pod{Labels: in.Labels, DesiredState: in.DesiredState})
	return &v1.PodTemplateSpec{
		ObjectMeta: pod.ObjectMeta,
		Spec:       pod.Spec,
	}
}

// PodTemplateFromV1 converts a template back.
func PodTemplateFromV1(in *v1.PodTemplateSpec) api.PodTemplate {
	pod := PodFromV1(&v1.Pod{ObjectMeta: in.ObjectMeta, Spec: in.Spec})
	return api.PodTemplate{Labels: pod.Labels, DesiredState: pod.DesiredState}
}

func rcConditionsToV1(in []api.Condition) []v1.ReplicationControllerCondition {
	if in == nil {
		return nil
	}
	out := make([]v1.ReplicationControllerCondition, len(in))
	for i, c := range in {
		out[i] = v1.ReplicationControllerCondition{
			Type:               v1.ReplicationControllerConditionType(c.Type),
			Status:             v1.ConditionStatus(c.Status),
			LastTransitionTime: timeToV1(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		}
	}
	return out
}

func rcConditionsFromV1(in []v1.ReplicationControllerCondition) []api.Condition {
	if in == nil {
		return nil
	}
	out := make([]api.Condition, len(in))
	for i, c := range in {
		out[i] = api.Condition{
			Type:               string(c.Type),
			Status:             string(c.Status),
			LastTransitionTime: timeFromV1(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		}
	}
	return out
}
