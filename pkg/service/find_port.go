package service

// Follows kubernetes/kubernetes pkg/service/endpoints_controller.go as of
// v0.4 (October 2014): findPort, shared by both builds.

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// findPort returns the container port a service's containerPort refers to.
// Unset (empty or zero) means the first port of the first container; a
// number is taken as it is, declared or not; a name is looked up across all
// containers' ports.
func findPort(manifest *api.ContainerManifest, portName util.IntOrString) (int, error) {
	unset := (portName.Kind == util.IntstrString && portName.StrVal == "") ||
		(portName.Kind == util.IntstrInt && portName.IntVal == 0)
	// Ours: v0.4 read Containers[0] without checking there was one, so a pod
	// with no containers panicked the whole pass, and every service after it
	// kept stale endpoints until the pod went away.
	if unset && len(manifest.Containers) > 0 && len(manifest.Containers[0].Ports) > 0 {
		return manifest.Containers[0].Ports[0].ContainerPort, nil
	}
	if portName.Kind == util.IntstrInt {
		// Ours: v0.4 returned port 0 here when nothing was declared, an
		// address nothing listens on; it is an error instead, and the pod is
		// left out of the endpoints.
		if portName.IntVal == 0 {
			return -1, fmt.Errorf("no suitable port for manifest: %s", manifest.ID)
		}
		return portName.IntVal, nil
	}
	for _, container := range manifest.Containers {
		for _, port := range container.Ports {
			if port.Name == portName.StrVal {
				return port.ContainerPort, nil
			}
		}
	}
	return -1, fmt.Errorf("no suitable port for manifest: %s", manifest.ID)
}

// endpointsEqual reports whether e holds exactly the addresses in endpoints,
// in any order.
func endpointsEqual(e *api.Endpoints, endpoints []string) bool {
	if len(e.Endpoints) != len(endpoints) {
		return false
	}
	have := make(map[string]bool, len(e.Endpoints))
	for _, ep := range e.Endpoints {
		have[ep] = true
	}
	for _, ep := range endpoints {
		if !have[ep] {
			return false
		}
	}
	return true
}
