package pod

// Follows kubernetes/kubernetes pkg/registry/pod/rest.go as of v0.4
// (October 2014): fillPodInfo and getPodStatus, which every GET and LIST of
// pods ran on each pod before answering.

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// MinionLister lists the registered minions. In v0.4 the master handed the
// pod storage its own client (client.MinionInterface), so each call is a
// GET /api/v1beta1/minions the apiserver sends to itself over loopback
// HTTP, answered from the minion cache.
type MinionLister interface {
	ListMinions() (*api.MinionList, error)
}

// fillStatus sets what v0.4 computed at read time: the pod's current host
// is its desired host, and its status is getPodStatus's.
//
// Ours: v0.4 also asked the kubelets, through a pod cache the master
// refreshed every 30 s (and straight away on a cache miss), for each pod's
// container info, took currentState.info and podIP from it, and asked the
// cloud provider for hostIP. Hollow nodes serve no kubelet API: they write
// status, podIP and hostIP into the pod, and those stored values stand for
// what the kubelet and the cloud said. So a read here costs the minion
// LISTs but not the kubelet calls of a cache miss, and the pod cache's
// background polling (one kubelet call per bound pod every 30 s) is absent.
func (rs *REST) fillStatus(pod *api.Pod) error {
	pod.CurrentState.Host = pod.DesiredState.Host
	status, err := rs.podStatus(pod)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("computing the status of pod %q: %v", pod.ID, err))
	}
	pod.CurrentState.Status = status
	return nil
}

// podStatus is v0.4's getPodStatus. An unbound pod is Waiting. A bound pod
// costs one LIST of every minion, and is Terminated if its host is not
// among them: deleting a minion turned all its pods Terminated at the next
// read, and the replication manager, which counts only pods that are not
// Terminated, replaced them. Otherwise the kubelet's word decides (here the
// status the hollow node stored; none yet means Waiting).
func (rs *REST) podStatus(pod *api.Pod) (api.PodStatus, error) {
	if pod.CurrentState.Host == "" {
		return api.PodWaiting, nil
	}
	minions, err := rs.minions.ListMinions()
	if err != nil {
		return "", fmt.Errorf("listing minions: %v", err)
	}
	found := false
	for _, minion := range minions.Items {
		if minion.ID == pod.CurrentState.Host {
			found = true
			break
		}
	}
	if !found {
		return api.PodTerminated, nil
	}
	if pod.CurrentState.Status == "" {
		return api.PodWaiting, nil
	}
	return pod.CurrentState.Status, nil
}
