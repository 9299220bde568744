package service

// Follows kubernetes/kubernetes pkg/registry/service/registry.go as of v0.4
// (October 2014).

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Registry stores services.
type Registry interface {
	ListServices(ctx api.Context) (*api.ServiceList, error)
	CreateService(ctx api.Context, svc *api.Service) error
	GetService(ctx api.Context, id string) (*api.Service, error)
	// DeleteService deletes the service and its endpoints.
	DeleteService(ctx api.Context, id string) error
	UpdateService(ctx api.Context, svc *api.Service) error
	WatchServices(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
}
