package endpoint

// Follows kubernetes/kubernetes pkg/registry/endpoint/rest.go as of v0.4
// (October 2014).

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// REST serves endpoints.
type REST struct {
	registry Registry
}

// NewREST returns the REST storage of endpoints on registry.
func NewREST(registry Registry) *REST {
	return &REST{registry: registry}
}

var (
	_ apiserver.RESTStorage     = &REST{}
	_ apiserver.ResourceWatcher = &REST{}
)

// New returns an empty endpoints object to decode a request into.
func (*REST) New() api.Object {
	return &api.Endpoints{}
}

// Get returns the endpoints of service id.
func (rs *REST) Get(ctx api.Context, id string) (api.Object, error) {
	return rs.registry.GetEndpoints(ctx, id)
}

// List returns the endpoints of every service; endpoints cannot be
// selected.
//
// Ours: a selector is a 400 here, where v0.4 answered with a plain error
// (a 500).
func (rs *REST) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	if !label.Empty() {
		return nil, apierrors.NewBadRequest("label selectors are not supported on endpoints (got " + label.String() + ")")
	}
	if err := registry.CheckFields("endpoints", field); err != nil {
		return nil, err
	}
	return rs.registry.ListEndpoints(ctx)
}

// Watch watches every endpoints object, or the one field's "ID=<id>"
// names.
func (rs *REST) Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return rs.registry.WatchEndpoints(ctx, label, field, resourceVersion)
}

// Create stores the endpoints of a service, replacing any already there,
// as v0.4 did.
//
// Ours: the object is validated (an id that is a service id, "host:port"
// entries); v0.4 checked only that the id was set. v0.4 also ignored the
// namespace of endpoints, so the ones its controller wrote had none; here
// it is checked against the request's and filled in, as for every other
// resource, and stored endpoints carry "namespace": "default".
func (rs *REST) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	endpoints, ok := obj.(*api.Endpoints)
	if !ok {
		return nil, registry.WrongKind("Endpoints", obj)
	}
	if err := registry.CheckNamespace(ctx, "endpoints", &endpoints.TypeMeta); err != nil {
		return nil, err
	}
	if errs := validation.ValidateEndpoints(endpoints); len(errs) > 0 {
		return nil, apierrors.NewInvalid("endpoints", endpoints.ID, errs)
	}
	if err := registry.BeforeCreate("endpoints", &endpoints.TypeMeta); err != nil {
		return nil, err
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.UpdateEndpoints(ctx, endpoints); err != nil {
			return nil, err
		}
		return rs.registry.GetEndpoints(ctx, endpoints.ID)
	}), nil
}

// Update replaces the endpoints of a service: compare-and-swap on the
// resourceVersion it carries (stale: 409), overwrite when it carries none.
func (rs *REST) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	endpoints, ok := obj.(*api.Endpoints)
	if !ok {
		return nil, registry.WrongKind("Endpoints", obj)
	}
	if err := registry.CheckNamespace(ctx, "endpoints", &endpoints.TypeMeta); err != nil {
		return nil, err
	}
	if errs := validation.ValidateEndpoints(endpoints); len(errs) > 0 {
		return nil, apierrors.NewInvalid("endpoints", endpoints.ID, errs)
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.UpdateEndpoints(ctx, endpoints); err != nil {
			return nil, err
		}
		return rs.registry.GetEndpoints(ctx, endpoints.ID)
	}), nil
}

// Delete deletes the endpoints of service id.
//
// Ours: v0.4 answered "unimplemented"; deleting the service was the only
// way to remove them.
func (rs *REST) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.DeleteEndpoints(ctx, id); err != nil {
			return nil, err
		}
		return &api.Status{Status: api.StatusSuccess}, nil
	}), nil
}
