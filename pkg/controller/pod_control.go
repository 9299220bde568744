//go:build !modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replication_controller.go as
// of v0.4 (October 2014): the pod-creating half of the manager sits behind
// an interface so tests can count calls instead of making them. The modern
// pod control (ControllerRef on every pod, errors returned, no extra label)
// is in pod_control_modern.go.

import (
	"sync"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
)

// PodControlInterface creates and deletes pods on behalf of a manager.
type PodControlInterface interface {
	// createReplica creates one pod from controllerSpec's template.
	createReplica(ctx api.Context, controllerSpec api.ReplicationController)
	// deletePod deletes the pod identified by podID.
	deletePod(ctx api.Context, podID string) error
}

// RealPodControl creates and deletes pods through the apiserver.
type RealPodControl struct {
	kubeClient client.Interface
}

// createReplica posts a pod built from the controller's template. The pod has
// no id: the apiserver assigns one. An error is logged and forgotten; the
// next sync will notice the pod is still missing and try again. The log line
// is v0.4's: the error as a Go value, naming neither controller nor pod.
func (r RealPodControl) createReplica(ctx api.Context, controllerSpec api.ReplicationController) {
	pod := &api.Pod{
		DesiredState: controllerSpec.DesiredState.PodTemplate.DesiredState,
		Labels:       replicaLabels(controllerSpec),
	}
	podCreates.Inc()
	if _, err := r.kubeClient.CreatePod(ctx, pod); err != nil {
		podCreateErrors.Inc()
		glog.Errorf("%#v\n", err)
	}
}

// replicaLabels returns the labels of a new replica: the template's labels
// plus replicationController=<controller id>, the label v0.4 stamped on
// every pod it made. When the template has no labels, none are added: v0.4
// left a TODO saying it should not skip the label in that case, and did.
//
// Ours: v0.4 wrote the label into the template's own map, shared by every
// goroutine creating a replica at once; today's Go runtime stops the process
// on such concurrent map writes, so the labels are copied first, as upstream
// did from 1ffc82dfe (October 2014, after v0.4). The label itself is as
// old as the manager: the first commit (2c4b3a562, June 2014) stamped it.
func replicaLabels(controllerSpec api.ReplicationController) map[string]string {
	template := controllerSpec.DesiredState.PodTemplate.Labels
	if template == nil {
		return nil
	}
	out := make(map[string]string, len(template)+1)
	for k, v := range template {
		out[k] = v
	}
	out["replicationController"] = controllerSpec.ID
	return out
}

// deletePod deletes one pod by id.
func (r RealPodControl) deletePod(ctx api.Context, podID string) error {
	podDeletes.Inc()
	err := r.kubeClient.DeletePod(ctx, podID)
	if err != nil {
		podDeleteErrors.Inc()
	}
	return err
}

// FakePodControl records the calls a manager makes instead of making them.
// It is safe for the many goroutines the 2014 manager starts at once.
type FakePodControl struct {
	sync.Mutex
	controllerSpec []api.ReplicationController
	deletePodID    []string
}

func (f *FakePodControl) createReplica(ctx api.Context, spec api.ReplicationController) {
	f.Lock()
	defer f.Unlock()
	f.controllerSpec = append(f.controllerSpec, spec)
}

func (f *FakePodControl) deletePod(ctx api.Context, podID string) error {
	f.Lock()
	defer f.Unlock()
	f.deletePodID = append(f.deletePodID, podID)
	return nil
}

// counts returns how many creates and deletes were recorded.
func (f *FakePodControl) counts() (creates, deletes int) {
	f.Lock()
	defer f.Unlock()
	return len(f.controllerSpec), len(f.deletePodID)
}

// filterActivePods drops pods that have stopped: a Terminated pod no longer
// counts as a replica, so the manager replaces it. Waiting and Running pods
// count, whether or not they have been scheduled.
func filterActivePods(pods []api.Pod) []api.Pod {
	var result []api.Pod
	for _, value := range pods {
		if value.CurrentState.Status != api.PodTerminated {
			result = append(result, value)
		}
	}
	return result
}
