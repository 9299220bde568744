package conversion

// Containers: a 2014 manifest's container against a v1 container. cpu and
// memory become resource limits; the probe, lifecycle and port fields map
// one to one.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

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
