package endpoint

// Follows kubernetes/kubernetes pkg/registry/endpoint/registry.go as of v0.4
// (October 2014).

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Registry stores endpoints.
type Registry interface {
	ListEndpoints(ctx api.Context) (*api.EndpointsList, error)
	GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error)
	WatchEndpoints(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
	// UpdateEndpoints stores e: compare-and-swap when it carries a
	// resourceVersion, create or overwrite when it does not.
	UpdateEndpoints(ctx api.Context, e *api.Endpoints) error
	DeleteEndpoints(ctx api.Context, id string) error
}
