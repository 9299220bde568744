package controller

// Follows kubernetes/kubernetes pkg/registry/controller/registry.go as of
// v0.4 (October 2014).

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Registry stores replication controllers.
type Registry interface {
	ListControllers(ctx api.Context) (*api.ReplicationControllerList, error)
	WatchControllers(ctx api.Context, resourceVersion uint64) (watch.Interface, error)
	GetController(ctx api.Context, controllerID string) (*api.ReplicationController, error)
	CreateController(ctx api.Context, controller *api.ReplicationController) error
	UpdateController(ctx api.Context, controller *api.ReplicationController) error
	DeleteController(ctx api.Context, controllerID string) error
}
