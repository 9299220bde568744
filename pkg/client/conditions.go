package client

// Follows kubernetes/kubernetes pkg/client/conditions.go as of v0.4 (October
// 2014), used by the integration test to wait for a controller's pods.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// ControllerHasDesiredReplicas returns a condition that holds when as many
// pods match the controller's selector as it wants. Like 2014 it counts
// every matching pod, terminated or not.
//
// Ours: v0.4 made this a method of *Client; taking an Interface lets tests
// pass a Fake.
func ControllerHasDesiredReplicas(c Interface, controller api.ReplicationController) func() (bool, error) {
	return func() (bool, error) {
		ctx := api.WithNamespace(api.NewContext(), controller.Namespace)
		pods, err := c.ListPods(ctx, labels.Set(controller.DesiredState.ReplicaSelector).AsSelector())
		if err != nil {
			return false, err
		}
		return len(pods.Items) == controller.DesiredState.Replicas, nil
	}
}
