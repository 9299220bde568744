package service

// Follows kubernetes/kubernetes pkg/registry/service/rest.go as of v0.4
// (October 2014).

import (
	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// REST serves services.
type REST struct {
	registry Registry
}

// NewREST returns the REST storage of services on registry.
func NewREST(registry Registry) *REST {
	return &REST{registry: registry}
}

var (
	_ apiserver.RESTStorage     = &REST{}
	_ apiserver.ResourceWatcher = &REST{}
)

// New returns an empty service to decode a request into.
func (*REST) New() api.Object {
	return &api.Service{}
}

// Create stores a new service.
//
// Ours: v0.4 asked its cloud provider for a TCP load balancer when
// createExternalLoadBalancer was set, and refused the service when it had
// no cloud provider. There is no cloud here; the flag is stored, logged and
// otherwise ignored, so that the 2014 examples that set it still load.
func (rs *REST) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	srv, ok := obj.(*api.Service)
	if !ok {
		return nil, registry.WrongKind("Service", obj)
	}
	if err := registry.CheckNamespace(ctx, "service", &srv.TypeMeta); err != nil {
		return nil, err
	}
	if errs := validation.ValidateService(srv); len(errs) > 0 {
		return nil, apierrors.NewInvalid("service", srv.ID, errs)
	}
	if err := registry.BeforeCreate("service", &srv.TypeMeta); err != nil {
		return nil, err
	}
	if srv.CreateExternalLoadBalancer {
		glog.Infof("service %s asks for an external load balancer; there is no cloud provider, so none is made", srv.ID)
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.CreateService(ctx, srv); err != nil {
			return nil, err
		}
		return rs.registry.GetService(ctx, srv.ID)
	}), nil
}

// Delete deletes the service id and its endpoints. A missing service is
// reported at once, as in 2014, where the lookup found its load balancer.
func (rs *REST) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	if _, err := rs.registry.GetService(ctx, id); err != nil {
		return nil, err
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.DeleteService(ctx, id); err != nil {
			return nil, err
		}
		return &api.Status{Status: api.StatusSuccess}, nil
	}), nil
}

// Get returns the service id.
func (rs *REST) Get(ctx api.Context, id string) (api.Object, error) {
	return rs.registry.GetService(ctx, id)
}

// List returns the services whose own labels match label.
//
// Ours: v0.4 ignored the field selector here; "ID=<id>" is honoured, as
// its watch did, and any other field is a 400.
func (rs *REST) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	if err := registry.CheckFields("services", field, "ID"); err != nil {
		return nil, err
	}
	list, err := rs.registry.ListServices(ctx)
	if err != nil {
		return nil, err
	}
	var filtered []api.Service
	for _, service := range list.Items {
		if label.Matches(labels.Set(service.Labels)) && field.Matches(labels.Set{"ID": service.ID}) {
			filtered = append(filtered, service)
		}
	}
	list.Items = filtered
	return list, nil
}

// Watch watches every service, or the one field's "ID=<id>" names.
func (rs *REST) Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return rs.registry.WatchServices(ctx, label, field, resourceVersion)
}

// Update replaces a service; the update must carry its current
// resourceVersion, or none to create it.
func (rs *REST) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	srv, ok := obj.(*api.Service)
	if !ok {
		return nil, registry.WrongKind("Service", obj)
	}
	if err := registry.CheckNamespace(ctx, "service", &srv.TypeMeta); err != nil {
		return nil, err
	}
	if errs := validation.ValidateService(srv); len(errs) > 0 {
		return nil, apierrors.NewInvalid("service", srv.ID, errs)
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.UpdateService(ctx, srv); err != nil {
			return nil, err
		}
		return rs.registry.GetService(ctx, srv.ID)
	}), nil
}
