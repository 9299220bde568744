package conversion

// Pods: v1beta1's desiredState/currentState pair against v1's spec/status.
// desiredState.host is spec.nodeName, desiredState.manifest is the spec's
// containers, volumes and restart policy, and currentState is the status.

import (
	"sort"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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

// containerToV1 converts one container. cpu (thousandths of a core) and
// memory (bytes) become resource limits, the nearest v1 meaning.
func containerToV1(in *api.Container) v1.Container {
	out := v1.Container{
		Name:            in.Name,
		Image:           in.Image,
		Command:         copyStrings(in.Command),
		WorkingDir:      in.WorkingDir,
		ImagePullPolicy: v1.PullPolicy(in.ImagePullPolicy),
		LivenessProbe:   probeToV1(in.LivenessProbe),
	}
	if in.Ports != nil {
		out.Ports = make([]v1.ContainerPort, len(in.Ports))
		for i, p := range in.Ports {
			out.Ports[i] = v1.ContainerPort{
				Name: p.Name, HostPort: int32(p.HostPort), ContainerPort: int32(p.ContainerPort),
				Protocol: v1.Protocol(p.Protocol), HostIP: p.HostIP,
			}
		}
	}
	if in.Env != nil {
		out.Env = make([]v1.EnvVar, len(in.Env))
		for i, e := range in.Env {
			// v1beta1 still accepted the older "key"; v1 has only name.
			name := e.Name
			if name == "" {
				name = e.Key
			}
			out.Env[i] = v1.EnvVar{Name: name, Value: e.Value}
		}
	}
	if in.CPU != 0 || in.Memory != 0 {
		out.Resources.Limits = v1.ResourceList{}
		if in.CPU != 0 {
			out.Resources.Limits[v1.ResourceCPU] = *resource.NewMilliQuantity(int64(in.CPU), resource.DecimalSI)
		}
		if in.Memory != 0 {
			out.Resources.Limits[v1.ResourceMemory] = *resource.NewQuantity(int64(in.Memory), resource.BinarySI)
		}
	}
	if in.VolumeMounts != nil {
		out.VolumeMounts = make([]v1.VolumeMount, len(in.VolumeMounts))
		for i, m := range in.VolumeMounts {
			// "path" was v1beta1's older spelling of mountPath.
			path := m.MountPath
			if path == "" {
				path = m.Path
			}
			out.VolumeMounts[i] = v1.VolumeMount{Name: m.Name, ReadOnly: m.ReadOnly, MountPath: path}
		}
	}
	if in.Lifecycle != nil {
		out.Lifecycle = &v1.Lifecycle{
			PostStart: handlerToV1(in.Lifecycle.PostStart),
			PreStop:   handlerToV1(in.Lifecycle.PreStop),
		}
	}
	if in.Privileged {
		privileged := true
		out.SecurityContext = &v1.SecurityContext{Privileged: &privileged}
	}
	return out
}

func containerFromV1(in *v1.Container) api.Container {
	out := api.Container{
		Name:            in.Name,
		Image:           in.Image,
		Command:         copyStrings(in.Command),
		WorkingDir:      in.WorkingDir,
		ImagePullPolicy: api.PullPolicy(in.ImagePullPolicy),
		LivenessProbe:   probeFromV1(in.LivenessProbe),
	}
	if in.Ports != nil {
		out.Ports = make([]api.Port, len(in.Ports))
		for i, p := range in.Ports {
			out.Ports[i] = api.Port{
				Name: p.Name, HostPort: int(p.HostPort), ContainerPort: int(p.ContainerPort),
				Protocol: api.Protocol(p.Protocol), HostIP: p.HostIP,
			}
		}
	}
	if in.Env != nil {
		out.Env = make([]api.EnvVar, len(in.Env))
		for i, e := range in.Env {
			out.Env[i] = api.EnvVar{Name: e.Name, Value: e.Value}
		}
	}
	if q, ok := in.Resources.Limits[v1.ResourceCPU]; ok {
		out.CPU = int(q.MilliValue())
	}
	if q, ok := in.Resources.Limits[v1.ResourceMemory]; ok {
		out.Memory = int(q.Value())
	}
	if in.VolumeMounts != nil {
		out.VolumeMounts = make([]api.VolumeMount, len(in.VolumeMounts))
		for i, m := range in.VolumeMounts {
			out.VolumeMounts[i] = api.VolumeMount{Name: m.Name, ReadOnly: m.ReadOnly, MountPath: m.MountPath}
		}
	}
	if in.Lifecycle != nil {
		out.Lifecycle = &api.Lifecycle{
			PostStart: handlerFromV1(in.Lifecycle.PostStart),
			PreStop:   handlerFromV1(in.Lifecycle.PreStop),
		}
	}
	if sc := in.SecurityContext; sc != nil && sc.Privileged != nil {
		out.Privileged = *sc.Privileged
	}
	return out
}

func probeToV1(in *api.LivenessProbe) *v1.Probe {
	if in == nil {
		return nil
	}
	out := &v1.Probe{InitialDelaySeconds: int32(in.InitialDelaySeconds)}
	out.HTTPGet = httpGetToV1(in.HTTPGet)
	out.Exec = execToV1(in.Exec)
	if in.TCPSocket != nil {
		out.TCPSocket = &v1.TCPSocketAction{Port: intOrStringToV1(in.TCPSocket.Port)}
	}
	return out
}

func probeFromV1(in *v1.Probe) *api.LivenessProbe {
	if in == nil {
		return nil
	}
	out := &api.LivenessProbe{InitialDelaySeconds: int64(in.InitialDelaySeconds)}
	out.HTTPGet = httpGetFromV1(in.HTTPGet)
	out.Exec = execFromV1(in.Exec)
	if in.TCPSocket != nil {
		out.TCPSocket = &api.TCPSocketAction{Port: intOrStringFromV1(in.TCPSocket.Port)}
	}
	return out
}

func handlerToV1(in *api.Handler) *v1.LifecycleHandler {
	if in == nil {
		return nil
	}
	return &v1.LifecycleHandler{Exec: execToV1(in.Exec), HTTPGet: httpGetToV1(in.HTTPGet)}
}

func handlerFromV1(in *v1.LifecycleHandler) *api.Handler {
	if in == nil {
		return nil
	}
	return &api.Handler{Exec: execFromV1(in.Exec), HTTPGet: httpGetFromV1(in.HTTPGet)}
}

func httpGetToV1(in *api.HTTPGetAction) *v1.HTTPGetAction {
	if in == nil {
		return nil
	}
	return &v1.HTTPGetAction{Path: in.Path, Port: intOrStringToV1(in.Port), Host: in.Host}
}

func httpGetFromV1(in *v1.HTTPGetAction) *api.HTTPGetAction {
	if in == nil {
		return nil
	}
	return &api.HTTPGetAction{Path: in.Path, Port: intOrStringFromV1(in.Port), Host: in.Host}
}

func execToV1(in *api.ExecAction) *v1.ExecAction {
	if in == nil {
		return nil
	}
	return &v1.ExecAction{Command: copyStrings(in.Command)}
}

func execFromV1(in *v1.ExecAction) *api.ExecAction {
	if in == nil {
		return nil
	}
	return &api.ExecAction{Command: copyStrings(in.Command)}
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
