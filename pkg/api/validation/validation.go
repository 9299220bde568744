package validation

// Follows kubernetes/kubernetes pkg/api/validation/validation.go as of v0.4
// (October 2014). Field names, error kinds and defaulting follow it; the
// code is this port's.

import (
	"net"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	errs "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

var supportedManifestVersions = map[string]bool{"v1beta1": true, "v1beta2": true}

var supportedProtocols = map[string]bool{"TCP": true, "UDP": true}

// MaxReplicas bounds desiredState.replicas.
//
// Ours: 2014 accepted any non-negative count, and a huge one made the
// manager try to create that many pods at once (history: burst-cap).
const MaxReplicas = 100000

func validateVolumes(volumes []api.Volume) (map[string]bool, errs.ErrorList) {
	allErrs := errs.ErrorList{}
	names := map[string]bool{}
	for i := range volumes {
		vol := &volumes[i]
		vErrs := errs.ErrorList{}
		switch {
		case vol.Name == "":
			vErrs = append(vErrs, errs.NewFieldRequired("name", vol.Name))
		case !util.IsDNSLabel(vol.Name):
			vErrs = append(vErrs, errs.NewFieldInvalidForm("name", vol.Name, FormDNSLabel))
		case names[vol.Name]:
			vErrs = append(vErrs, errs.NewFieldDuplicate("name", vol.Name))
		default:
			names[vol.Name] = true
		}
		if vol.Source != nil {
			n := 0
			if vol.Source.HostDir != nil {
				n++
			}
			if vol.Source.EmptyDir != nil {
				n++
			}
			if vol.Source.GCEPersistentDisk != nil {
				n++
			}
			if n != 1 {
				vErrs = append(vErrs, errs.NewFieldInvalid("source", "exactly one source"))
			}
		}
		allErrs = append(allErrs, vErrs.PrefixIndex(i)...)
	}
	return names, allErrs
}

func validatePorts(ports []api.Port) errs.ErrorList {
	allErrs := errs.ErrorList{}
	names := map[string]bool{}
	for i := range ports {
		pErrs := errs.ErrorList{}
		port := &ports[i]
		if port.Name != "" {
			switch {
			case !util.IsDNSLabel(port.Name):
				pErrs = append(pErrs, errs.NewFieldInvalidForm("name", port.Name, FormDNSLabel))
			case names[port.Name]:
				pErrs = append(pErrs, errs.NewFieldDuplicate("name", port.Name))
			default:
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			pErrs = append(pErrs, errs.NewFieldRequired("containerPort", port.ContainerPort))
		} else if !util.IsValidPortNum(port.ContainerPort) {
			pErrs = append(pErrs, errs.NewFieldInvalid("containerPort", port.ContainerPort))
		}
		if port.HostPort != 0 && !util.IsValidPortNum(port.HostPort) {
			pErrs = append(pErrs, errs.NewFieldInvalid("hostPort", port.HostPort))
		}
		// 2014 defaulted the protocol while validating.
		if port.Protocol == "" {
			port.Protocol = api.ProtocolTCP
		} else if !supportedProtocols[strings.ToUpper(string(port.Protocol))] {
			pErrs = append(pErrs, errs.NewFieldNotSupported("protocol", port.Protocol))
		}
		allErrs = append(allErrs, pErrs.PrefixIndex(i)...)
	}
	return allErrs
}

func validateEnv(vars []api.EnvVar) errs.ErrorList {
	allErrs := errs.ErrorList{}
	for i := range vars {
		ev := &vars[i]
		vErrs := errs.ErrorList{}
		// v1beta1 still accepted the older "key" for the name. v0.4 read
		// "name", or "key" when "name" was empty, and wrote the name back
		// under both, so a stored entry carries both keys.
		if ev.Name == "" {
			ev.Name = ev.Key
		}
		ev.Key = ev.Name
		if ev.Name == "" {
			vErrs = append(vErrs, errs.NewFieldRequired("name", ev.Name))
		} else if !util.IsCIdentifier(ev.Name) {
			vErrs = append(vErrs, errs.NewFieldInvalid("name", ev.Name))
		}
		allErrs = append(allErrs, vErrs.PrefixIndex(i)...)
	}
	return allErrs
}

func validateVolumeMounts(mounts []api.VolumeMount, volumes map[string]bool) errs.ErrorList {
	allErrs := errs.ErrorList{}
	for i := range mounts {
		mnt := &mounts[i]
		mErrs := errs.ErrorList{}
		if mnt.Name == "" {
			mErrs = append(mErrs, errs.NewFieldRequired("name", mnt.Name))
		} else if !volumes[mnt.Name] {
			mErrs = append(mErrs, errs.NewFieldNotFound("name", mnt.Name))
		}
		// v1beta1 still accepted the older "path" for the mount path. v0.4
		// read "mountPath", or "path" when "mountPath" was empty, wrote the
		// result back under both, and dropped "mountType".
		if mnt.MountPath == "" {
			mnt.MountPath = mnt.Path
		}
		mnt.Path = mnt.MountPath
		mnt.MountType = ""
		if mnt.MountPath == "" {
			mErrs = append(mErrs, errs.NewFieldRequired("mountPath", mnt.MountPath))
		}
		allErrs = append(allErrs, mErrs.PrefixIndex(i)...)
	}
	return allErrs
}

// checkHostPortConflicts refuses two containers of one pod claiming the same
// host port: they share a network namespace.
func checkHostPortConflicts(containers []api.Container) errs.ErrorList {
	allErrs := errs.ErrorList{}
	seen := map[int]bool{}
	for ci := range containers {
		for pi, port := range containers[ci].Ports {
			if port.HostPort == 0 {
				continue
			}
			if seen[port.HostPort] {
				allErrs = append(allErrs, errs.NewFieldDuplicate(
					"["+strconv.Itoa(ci)+"].ports["+strconv.Itoa(pi)+"].hostPort", port.HostPort))
			}
			seen[port.HostPort] = true
		}
	}
	return allErrs
}

func validateContainers(containers []api.Container, volumes map[string]bool) errs.ErrorList {
	allErrs := errs.ErrorList{}
	names := map[string]bool{}
	for i := range containers {
		ctr := &containers[i]
		cErrs := errs.ErrorList{}
		switch {
		case ctr.Name == "":
			cErrs = append(cErrs, errs.NewFieldRequired("name", ctr.Name))
		case !util.IsDNSLabel(ctr.Name):
			cErrs = append(cErrs, errs.NewFieldInvalidForm("name", ctr.Name, FormDNSLabel))
		case names[ctr.Name]:
			cErrs = append(cErrs, errs.NewFieldDuplicate("name", ctr.Name))
		default:
			names[ctr.Name] = true
		}
		// Ours: v0.4 took any non-empty image name; kubecfg prints it in
		// its tables, so control characters are refused.
		if ctr.Image == "" {
			cErrs = append(cErrs, errs.NewFieldRequired("image", ctr.Image))
		} else if hasControl(ctr.Image) {
			cErrs = append(cErrs, errs.NewFieldInvalid("image", ctr.Image))
		}
		cErrs = append(cErrs, validatePorts(ctr.Ports).Prefix("ports")...)
		cErrs = append(cErrs, validateEnv(ctr.Env).Prefix("env")...)
		cErrs = append(cErrs, validateVolumeMounts(ctr.VolumeMounts, volumes).Prefix("volumeMounts")...)
		allErrs = append(allErrs, cErrs.PrefixIndex(i)...)
	}
	return append(allErrs, checkHostPortConflicts(containers)...)
}

func validateRestartPolicy(policy *api.RestartPolicy) errs.ErrorList {
	n := 0
	if policy.Always != nil {
		n++
	}
	if policy.OnFailure != nil {
		n++
	}
	if policy.Never != nil {
		n++
	}
	if n == 0 {
		policy.Always = &api.RestartPolicyAlways{}
	}
	if n > 1 {
		return errs.ErrorList{errs.NewFieldInvalid("", "more than one restart policy")}
	}
	return nil
}

// ValidateManifest checks a container manifest and fills in its defaults.
func ValidateManifest(manifest *api.ContainerManifest) errs.ErrorList {
	allErrs := errs.ErrorList{}
	if manifest.Version == "" {
		allErrs = append(allErrs, errs.NewFieldRequired("version", manifest.Version))
	} else if !supportedManifestVersions[strings.ToLower(manifest.Version)] {
		allErrs = append(allErrs, errs.NewFieldNotSupported("version", manifest.Version))
	}
	volumes, vErrs := validateVolumes(manifest.Volumes)
	allErrs = append(allErrs, vErrs.Prefix("volumes")...)
	allErrs = append(allErrs, validateContainers(manifest.Containers, volumes).Prefix("containers")...)
	allErrs = append(allErrs, validateRestartPolicy(&manifest.RestartPolicy).Prefix("restartPolicy")...)
	return allErrs
}

func validateNamespace(namespace string) errs.ErrorList {
	if !util.IsDNSSubdomain(namespace) {
		return errs.ErrorList{errs.NewFieldInvalidForm("namespace", namespace, FormDNSSubdomain)}
	}
	return nil
}

// ValidatePod checks a pod; its desired state is validated as a manifest.
func ValidatePod(pod *api.Pod) errs.ErrorList {
	allErrs := ValidateID("pods", pod.ID)
	allErrs = append(allErrs, validateNamespace(pod.Namespace)...)
	allErrs = append(allErrs, validateLabels("labels", pod.Labels)...)
	allErrs = append(allErrs, ValidateManifest(&pod.DesiredState.Manifest).Prefix("desiredState.manifest")...)
	return allErrs
}

// ValidateService checks a service: 2014 already demanded an RFC 952 id, a
// valid port and a non-empty selector.
func ValidateService(service *api.Service) errs.ErrorList {
	allErrs := ValidateID("services", service.ID)
	allErrs = append(allErrs, validateNamespace(service.Namespace)...)
	if !util.IsValidPortNum(service.Port) {
		allErrs = append(allErrs, errs.NewFieldInvalid("port", service.Port))
	}
	if service.Protocol == "" {
		service.Protocol = api.ProtocolTCP
	} else if !supportedProtocols[strings.ToUpper(string(service.Protocol))] {
		allErrs = append(allErrs, errs.NewFieldNotSupported("protocol", service.Protocol))
	}
	if labels.Set(service.Selector).AsSelector().Empty() {
		allErrs = append(allErrs, errs.NewFieldRequired("selector", service.Selector))
	}
	allErrs = append(allErrs, validateLabels("labels", service.Labels)...)
	allErrs = append(allErrs, validateSelector("selector", service.Selector)...)
	return allErrs
}

// ValidateReplicationController checks a controller: a non-empty selector
// that matches the template's labels, replicas not negative, and a valid
// template manifest.
func ValidateReplicationController(controller *api.ReplicationController) errs.ErrorList {
	allErrs := ValidateID("replicationControllers", controller.ID)
	allErrs = append(allErrs, validateNamespace(controller.Namespace)...)
	allErrs = append(allErrs, validateLabels("labels", controller.Labels)...)
	allErrs = append(allErrs, ValidateReplicationControllerState(&controller.DesiredState).Prefix("desiredState")...)
	return allErrs
}

// ValidateReplicationControllerState checks a controller's desired state.
func ValidateReplicationControllerState(state *api.ReplicationControllerState) errs.ErrorList {
	allErrs := errs.ErrorList{}
	selector := labels.Set(state.ReplicaSelector).AsSelector()
	if selector.Empty() {
		allErrs = append(allErrs, errs.NewFieldRequired("replicaSelector", state.ReplicaSelector))
	}
	if !selector.Matches(labels.Set(state.PodTemplate.Labels)) {
		allErrs = append(allErrs, errs.NewFieldInvalid("podTemplate.labels", state.PodTemplate.Labels))
	}
	if state.Replicas < 0 || state.Replicas > MaxReplicas {
		allErrs = append(allErrs, errs.NewFieldInvalid("replicas", state.Replicas))
	}
	if state.MinReadySeconds < 0 {
		allErrs = append(allErrs, errs.NewFieldInvalid("minReadySeconds", state.MinReadySeconds))
	}
	allErrs = append(allErrs, validateSelector("replicaSelector", state.ReplicaSelector)...)
	allErrs = append(allErrs, validateLabels("podTemplate.labels", state.PodTemplate.Labels)...)
	allErrs = append(allErrs, ValidateManifest(&state.PodTemplate.DesiredState.Manifest).Prefix("podTemplate.desiredState.manifest")...)
	return allErrs
}

// ValidateEndpoints checks an endpoints object: its id is a service id and
// every entry is "host:port".
//
// Ours: v0.4 stored endpoints unchecked.
func ValidateEndpoints(endpoints *api.Endpoints) errs.ErrorList {
	allErrs := ValidateID("endpoints", endpoints.ID)
	allErrs = append(allErrs, validateNamespace(endpoints.Namespace)...)
	for i, ep := range endpoints.Endpoints {
		_, port, err := net.SplitHostPort(ep)
		n, perr := strconv.Atoi(port)
		if err != nil || perr != nil || !util.IsValidPortNum(n) {
			allErrs = append(allErrs, errs.NewFieldInvalid("endpoints["+strconv.Itoa(i)+"]", ep))
		}
	}
	return allErrs
}

// ValidateMinion checks a minion.
//
// Ours: v0.4 took minions from a flag and never validated them.
func ValidateMinion(minion *api.Minion) errs.ErrorList {
	allErrs := ValidateID("minions", minion.ID)
	if minion.HostIP != "" && net.ParseIP(minion.HostIP) == nil {
		allErrs = append(allErrs, errs.NewFieldInvalid("hostIP", minion.HostIP))
	}
	return allErrs
}

// ValidateBinding checks a binding of a pod to a host.
//
// Ours: v0.4 passed both fields to storage unchecked.
func ValidateBinding(binding *api.Binding) errs.ErrorList {
	allErrs := errs.ErrorList{}
	if binding.PodID == "" {
		allErrs = append(allErrs, errs.NewFieldRequired("podID", binding.PodID))
	} else if !IsValidObjectID(binding.PodID) {
		allErrs = append(allErrs, errs.NewFieldInvalid("podID", binding.PodID))
	}
	if binding.Host == "" {
		allErrs = append(allErrs, errs.NewFieldRequired("host", binding.Host))
	} else if !IsValidObjectID(binding.Host) {
		allErrs = append(allErrs, errs.NewFieldInvalid("host", binding.Host))
	}
	return allErrs
}
