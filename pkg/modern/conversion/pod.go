package conversion

// Pods: v1beta1's desiredState/currentState pair against v1's spec/status.
// desiredState.host is spec.nodeName, desiredState.manifest is the spec's
// containers, volumes and restart policy, and currentState is the status.

import (
	"sort"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// PodToV1 converts a 2014 pod to a v1 pod.
func PodToV1(in *api.Pod) *v1.Pod {
	out := &v1.Pod{ObjectMeta: objectMetaToV1(&in.TypeMeta, in.Labels)}
	out.Spec = manifestToV1(&in.DesiredState.Manifest)
	out.Spec.NodeName = in.DesiredState.Host
	out.Status = v1.PodStatus{
		Phase:             phaseToV1(in.CurrentState.Status),
		HostIP:            in.CurrentState.HostIP,
		PodIP:             in.CurrentState.PodIP,
		Conditions:        podConditionsToV1(in.CurrentState.Conditions),
		ContainerStatuses: infoToV1(in.CurrentState.Info),
	}
	setStateAnnotation(&out.ObjectMeta, annotationDesiredState, in.DesiredState, api.PodState{})
	setStateAnnotation(&out.ObjectMeta, annotationCurrentState, in.CurrentState, api.PodState{})
	return out
}

// PodFromV1 converts a v1 pod back to a 2014 pod. The states come back
// verbatim from the annotations PodToV1 wrote; a pod made in v1 without
// them is converted field by field, and loses what v1 cannot hold (the
// manifest's version, id and uuid; the desired status).
func PodFromV1(in *v1.Pod) *api.Pod {
	out := &api.Pod{}
	out.Labels = objectMetaFromV1(&in.ObjectMeta, &out.TypeMeta)
	if !stateAnnotation(in.Annotations, annotationDesiredState, &out.DesiredState) {
		out.DesiredState = api.PodState{
			Manifest: manifestFromV1(&in.Spec),
			Host:     in.Spec.NodeName,
		}
	}
	if !stateAnnotation(in.Annotations, annotationCurrentState, &out.CurrentState) {
		out.CurrentState = api.PodState{
			Status:     phaseFromV1(in.Status.Phase),
			Host:       in.Spec.NodeName,
			HostIP:     in.Status.HostIP,
			PodIP:      in.Status.PodIP,
			Info:       infoFromV1(in.Status.ContainerStatuses),
			Conditions: podConditionsFromV1(in.Status.Conditions),
		}
	}
	return out
}

// phaseToV1 maps the three 2014 states onto v1 phases. Terminated had no
// exit code to tell success from failure; every 2014 pod was meant to run
// for ever, so stopping is a failure.
func phaseToV1(s api.PodStatus) v1.PodPhase {
	switch s {
	case api.PodWaiting:
		return v1.PodPending
	case api.PodRunning:
		return v1.PodRunning
	case api.PodTerminated:
		return v1.PodFailed
	}
	return ""
}

func phaseFromV1(p v1.PodPhase) api.PodStatus {
	switch p {
	case v1.PodPending:
		return api.PodWaiting
	case v1.PodRunning:
		return api.PodRunning
	case v1.PodFailed, v1.PodSucceeded:
		return api.PodTerminated
	}
	return ""
}

func podConditionsToV1(in []api.Condition) []v1.PodCondition {
	if in == nil {
		return nil
	}
	out := make([]v1.PodCondition, len(in))
	for i, c := range in {
		out[i] = v1.PodCondition{
			Type:               v1.PodConditionType(c.Type),
			Status:             v1.ConditionStatus(c.Status),
			LastTransitionTime: timeToV1(c.LastTransitionTime),
			Reason:             c.Reason,
			Message:            c.Message,
		}
	}
	return out
}

func podConditionsFromV1(in []v1.PodCondition) []api.Condition {
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

// infoToV1 turns the per-container info map into container statuses, in
// name order. The per-container podIP of 2014 (the network container's
// address) has no place there and is dropped.
func infoToV1(in api.PodInfo) []v1.ContainerStatus {
	if in == nil {
		return nil
	}
	out := make([]v1.ContainerStatus, 0, len(in))
	for name, s := range in {
		out = append(out, v1.ContainerStatus{Name: name, Image: s.Image, RestartCount: int32(s.RestartCount)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func infoFromV1(in []v1.ContainerStatus) api.PodInfo {
	if in == nil {
		return nil
	}
	out := make(api.PodInfo, len(in))
	for _, s := range in {
		out[s.Name] = api.ContainerStatus{Image: s.Image, RestartCount: int(s.RestartCount)}
	}
	return out
}

// manifestToV1 returns the spec of a manifest's containers, volumes and
// restart policy; version, id and uuid are the caller's to carry.
func manifestToV1(m *api.ContainerManifest) v1.PodSpec {
	spec := v1.PodSpec{RestartPolicy: restartPolicyToV1(m.RestartPolicy)}
	if m.Volumes != nil {
		spec.Volumes = make([]v1.Volume, len(m.Volumes))
		for i := range m.Volumes {
			spec.Volumes[i] = volumeToV1(&m.Volumes[i])
		}
	}
	if m.Containers != nil {
		spec.Containers = make([]v1.Container, len(m.Containers))
		for i := range m.Containers {
			spec.Containers[i] = containerToV1(&m.Containers[i])
		}
	}
	return spec
}

func manifestFromV1(spec *v1.PodSpec) api.ContainerManifest {
	m := api.ContainerManifest{RestartPolicy: restartPolicyFromV1(spec.RestartPolicy)}
	if spec.Volumes != nil {
		m.Volumes = make([]api.Volume, len(spec.Volumes))
		for i := range spec.Volumes {
			m.Volumes[i] = volumeFromV1(&spec.Volumes[i])
		}
	}
	if spec.Containers != nil {
		m.Containers = make([]api.Container, len(spec.Containers))
		for i := range spec.Containers {
			m.Containers[i] = containerFromV1(&spec.Containers[i])
		}
	}
	return m
}

func restartPolicyToV1(p api.RestartPolicy) v1.RestartPolicy {
	switch {
	case p.Always != nil:
		return v1.RestartPolicyAlways
	case p.OnFailure != nil:
		return v1.RestartPolicyOnFailure
	case p.Never != nil:
		return v1.RestartPolicyNever
	}
	return ""
}

func restartPolicyFromV1(p v1.RestartPolicy) api.RestartPolicy {
	switch p {
	case v1.RestartPolicyAlways:
		return api.RestartPolicy{Always: &api.RestartPolicyAlways{}}
	case v1.RestartPolicyOnFailure:
		return api.RestartPolicy{OnFailure: &api.RestartPolicyOnFailure{}}
	case v1.RestartPolicyNever:
		return api.RestartPolicy{Never: &api.RestartPolicyNever{}}
	}
	return api.RestartPolicy{}
}

func volumeToV1(in *api.Volume) v1.Volume {
	out := v1.Volume{Name: in.Name}
	if s := in.Source; s != nil {
		if s.HostDir != nil {
			out.HostPath = &v1.HostPathVolumeSource{Path: s.HostDir.Path}
		}
		if s.EmptyDir != nil {
			out.EmptyDir = &v1.EmptyDirVolumeSource{}
		}
		if d := s.GCEPersistentDisk; d != nil {
			out.GCEPersistentDisk = &v1.GCEPersistentDiskVolumeSource{
				PDName: d.PDName, FSType: d.FSType, Partition: int32(d.Partition), ReadOnly: d.ReadOnly,
			}
		}
	}
	return out
}

func volumeFromV1(in *v1.Volume) api.Volume {
	out := api.Volume{Name: in.Name}
	if in.HostPath == nil && in.EmptyDir == nil && in.GCEPersistentDisk == nil {
		return out
	}
	out.Source = &api.VolumeSource{}
	if in.HostPath != nil {
		out.Source.HostDir = &api.HostDir{Path: in.HostPath.Path}
	}
	if in.EmptyDir != nil {
		out.Source.EmptyDir = &api.EmptyDir{}
	}
	if d := in.GCEPersistentDisk; d != nil {
		out.Source.GCEPersistentDisk = &api.GCEPersistentDisk{
			PDName: d.PDName, FSType: d.FSType, Partition: int(d.Partition), ReadOnly: d.ReadOnly,
		}
	}
	return out
}

// IntOrStringToV1 converts a 2014 port reference (a number or a name).
func IntOrStringToV1(in util.IntOrString) intstr.IntOrString {
	return intOrStringToV1(in)
}

// IntOrStringFromV1 converts a port reference back.
func IntOrStringFromV1(in intstr.IntOrString) util.IntOrString {
	return intOrStringFromV1(in)
}

func intOrStringToV1(in util.IntOrString) intstr.IntOrString {
	if in.Kind == util.IntstrString {
		return intstr.FromString(in.StrVal)
	}
	return intstr.FromInt32(int32(in.IntVal))
}

func intOrStringFromV1(in intstr.IntOrString) util.IntOrString {
	if in.Type == intstr.String {
		return util.NewIntOrStringFromString(in.StrVal)
	}
	return util.NewIntOrStringFromInt(int(in.IntVal))
}

func copyStrings(in []string) []string {
	if in == nil {
		return nil
	}
	return append([]string{}, in...)
}
