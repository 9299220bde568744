package etcd

// Follows kubernetes/kubernetes pkg/registry/etcd/etcd.go as of v0.4
// (October 2014), the service and endpoints part.

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// ListServices returns every service.
func (r *Registry) ListServices(ctx api.Context) (*api.ServiceList, error) {
	list := &api.ServiceList{}
	if err := r.ExtractList(servicesPrefix, &list.Items, &list.ResourceVersion); err != nil {
		return nil, interpretListError(err)
	}
	return list, nil
}

// CreateService stores a new service.
func (r *Registry) CreateService(ctx api.Context, svc *api.Service) error {
	key, err := makeServiceKey(svc.ID)
	if err != nil {
		return err
	}
	return interpretCreateError(r.CreateObj(key, svc), "service", svc.ID)
}

// GetService returns the service id.
func (r *Registry) GetService(ctx api.Context, id string) (*api.Service, error) {
	key, err := makeServiceKey(id)
	if err != nil {
		return nil, err
	}
	var svc api.Service
	if err := r.ExtractObj(key, &svc, false); err != nil {
		return nil, interpretGetError(err, "service", id)
	}
	return &svc, nil
}

// DeleteService deletes the service id and then its endpoints, if any.
func (r *Registry) DeleteService(ctx api.Context, id string) error {
	key, err := makeServiceKey(id)
	if err != nil {
		return err
	}
	if err := r.Delete(key, true); err != nil {
		return interpretDeleteError(err, "service", id)
	}
	// 2014's TODO, still true: a failure here leaves endpoints behind,
	// which a new service of the same id would inherit.
	endpointsKey, err := makeServiceEndpointsKey(id)
	if err != nil {
		return err
	}
	if err := r.Delete(endpointsKey, true); err != nil && !tools.IsEtcdNotFound(err) {
		return interpretDeleteError(err, "endpoints", id)
	}
	return nil
}

// UpdateService replaces a service: compare-and-swap on its
// resourceVersion, or a create when it carries none.
func (r *Registry) UpdateService(ctx api.Context, svc *api.Service) error {
	key, err := makeServiceKey(svc.ID)
	if err != nil {
		return err
	}
	return interpretUpdateError(r.SetObj(key, svc), "service", svc.ID)
}

// WatchServices watches every service, or the one that field's "ID=<id>"
// names. Label selectors are refused.
func (r *Registry) WatchServices(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return r.watchByID("services", servicesPrefix, makeServiceKey, label, field, resourceVersion)
}

// watchByID implements the 2014 watch rules that services and endpoints
// share: no label selector, and a field selector that is empty or exactly
// "ID=<id>".
//
// Ours: v0.4 answered a refused selector with a plain error (a 500); it is
// a 400 here.
func (r *Registry) watchByID(kind, prefix string, makeKey func(string) (string, error), label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	if !label.Empty() {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("label selectors are not supported on %s (got %q)", kind, label.String()))
	}
	if err := registry.CheckFields(kind, field, "ID"); err != nil {
		return nil, err
	}
	if id, found := field.RequiresExactMatch("ID"); found {
		key, err := makeKey(id)
		if err != nil {
			return nil, err
		}
		return r.Watch(key, resourceVersion)
	}
	if field.Empty() {
		return r.WatchList(prefix, resourceVersion, tools.Everything)
	}
	return nil, apierrors.NewBadRequest(fmt.Sprintf("%s can be watched by field \"ID=<id>\" only (got %q)", kind, field.String()))
}

// ListEndpoints returns the endpoints of every service.
func (r *Registry) ListEndpoints(ctx api.Context) (*api.EndpointsList, error) {
	list := &api.EndpointsList{}
	if err := r.ExtractList(endpointsPrefix, &list.Items, &list.ResourceVersion); err != nil {
		return nil, interpretListError(err)
	}
	return list, nil
}

// GetEndpoints returns the endpoints of service id.
func (r *Registry) GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error) {
	key, err := makeServiceEndpointsKey(id)
	if err != nil {
		return nil, err
	}
	var endpoints api.Endpoints
	if err := r.ExtractObj(key, &endpoints, false); err != nil {
		return nil, interpretGetError(err, "endpoints", id)
	}
	return &endpoints, nil
}

// WatchEndpoints watches every endpoints object, or the one that field's
// "ID=<id>" names. Label selectors are refused.
func (r *Registry) WatchEndpoints(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return r.watchByID("endpoints", endpointsPrefix, makeServiceEndpointsKey, label, field, resourceVersion)
}

// UpdateEndpoints stores e. Without a resourceVersion it overwrites what is
// there, or creates it, as v0.4 always did (through AtomicUpdate).
//
// Ours: with a resourceVersion it is a compare-and-swap, so a stale update
// is a 409. v0.4 ignored the version, and two endpoints controllers (the
// two-managers demo) silently overwrote each other.
func (r *Registry) UpdateEndpoints(ctx api.Context, e *api.Endpoints) error {
	key, err := makeServiceEndpointsKey(e.ID)
	if err != nil {
		return err
	}
	if e.ResourceVersion != 0 {
		return interpretUpdateError(r.SetObj(key, e), "endpoints", e.ID)
	}
	err = r.AtomicUpdate(key, &api.Endpoints{}, func(api.Object) (api.Object, error) {
		return e, nil
	})
	return interpretUpdateError(err, "endpoints", e.ID)
}

// DeleteEndpoints deletes the endpoints of service id.
//
// Ours: v0.4 could not delete endpoints through the API.
func (r *Registry) DeleteEndpoints(ctx api.Context, id string) error {
	key, err := makeServiceEndpointsKey(id)
	if err != nil {
		return err
	}
	return interpretDeleteError(r.Delete(key, false), "endpoints", id)
}
