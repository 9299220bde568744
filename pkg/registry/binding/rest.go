package binding

// Follows kubernetes/kubernetes pkg/registry/binding/rest.go as of v0.4
// (October 2014).
//
// Ours: v0.4 answered GET, LIST and DELETE of bindings with a 404 and PUT
// with a plain error (a 500); all four are a 405 here: bindings can only be
// POSTed.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry"
)

// REST serves bindings.
type REST struct {
	registry Registry
}

// NewREST returns the REST storage of bindings on registry.
func NewREST(registry Registry) *REST {
	return &REST{registry: registry}
}

var _ apiserver.RESTStorage = &REST{}

// New returns an empty binding to decode a request into.
func (*REST) New() api.Object {
	return &api.Binding{}
}

// Create binds a pod to a host and answers with a success Status.
func (rs *REST) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	binding, ok := obj.(*api.Binding)
	if !ok {
		return nil, registry.WrongKind("Binding", obj)
	}
	if errs := validation.ValidateBinding(binding); len(errs) > 0 {
		return nil, apierrors.NewInvalid("binding", binding.PodID, errs)
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.ApplyBinding(ctx, binding); err != nil {
			return nil, err
		}
		return &api.Status{Status: api.StatusSuccess}, nil
	}), nil
}

// List is refused.
func (*REST) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	return nil, apierrors.NewMethodNotSupported("bindings", "GET")
}

// Get is refused.
func (*REST) Get(ctx api.Context, id string) (api.Object, error) {
	return nil, apierrors.NewMethodNotSupported("bindings", "GET")
}

// Delete is refused.
func (*REST) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	return nil, apierrors.NewMethodNotSupported("bindings", "DELETE")
}

// Update is refused.
func (*REST) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	return nil, apierrors.NewMethodNotSupported("bindings", "PUT")
}
