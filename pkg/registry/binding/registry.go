package binding

// Follows kubernetes/kubernetes pkg/registry/binding/registry.go as of v0.4
// (October 2014).

import "github.com/kube-rewind/kube-rewind/pkg/api"

// Registry applies bindings.
type Registry interface {
	// ApplyBinding assigns pod binding.PodID to host binding.Host.
	ApplyBinding(ctx api.Context, binding *api.Binding) error
}
