package controller

// Follows kubernetes/kubernetes pkg/registry/controller/rest.go as of v0.4
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

// PodLister lists pods by label.
type PodLister interface {
	ListPods(ctx api.Context, labels labels.Selector) (*api.PodList, error)
}

// REST serves replication controllers.
type REST struct {
	registry  Registry
	podLister PodLister
}

// NewREST returns the REST storage of replication controllers on registry;
// podLister counts their pods.
func NewREST(registry Registry, podLister PodLister) *REST {
	return &REST{registry: registry, podLister: podLister}
}

var (
	_ apiserver.RESTStorage     = &REST{}
	_ apiserver.ResourceWatcher = &REST{}
)

// New returns an empty controller to decode a request into.
func (*REST) New() api.Object {
	return &api.ReplicationController{}
}

// Create stores a new replication controller. One without an id gets a
// time-based UUID. The template's manifest id is cleared: each pod gets its
// own from the pod API.
func (rs *REST) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	controller, ok := obj.(*api.ReplicationController)
	if !ok {
		return nil, registry.WrongKind("ReplicationController", obj)
	}
	if err := registry.CheckNamespace(ctx, "replicationController", &controller.TypeMeta); err != nil {
		return nil, err
	}
	if len(controller.ID) == 0 {
		controller.ID = registry.NewTimeBasedID()
	}
	controller.DesiredState.PodTemplate.DesiredState.Manifest.ID = ""
	if errs := validation.ValidateReplicationController(controller); len(errs) > 0 {
		return nil, apierrors.NewInvalid("replicationController", controller.ID, errs)
	}
	if err := registry.BeforeCreate("replicationController", &controller.TypeMeta); err != nil {
		return nil, err
	}
	// Ours: generation did not exist in 2014; it starts at 1 and goes up
	// with every change of desiredState (see UpdateController).
	controller.Generation = 1
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.CreateController(ctx, controller); err != nil {
			return nil, err
		}
		return rs.registry.GetController(ctx, controller.ID)
	}), nil
}

// Delete deletes the replication controller id; its pods stay.
func (rs *REST) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.DeleteController(ctx, id); err != nil {
			return nil, err
		}
		return &api.Status{Status: api.StatusSuccess}, nil
	}), nil
}

// Get returns the replication controller id with its current replica
// count.
func (rs *REST) Get(ctx api.Context, id string) (api.Object, error) {
	controller, err := rs.registry.GetController(ctx, id)
	if err != nil {
		return nil, err
	}
	rs.fillCurrentState(ctx, controller)
	return controller, nil
}

// List returns the controllers whose own labels match label, each with its
// current replica count: one pod LIST per controller returned. Controllers
// cannot be selected by field.
//
// Ours: a field selector is a 400 here, where v0.4 answered with a plain
// error (a 500); the same goes for Watch.
func (rs *REST) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	if err := registry.CheckFields("replicationControllers", field); err != nil {
		return nil, err
	}
	controllers, err := rs.registry.ListControllers(ctx)
	if err != nil {
		return nil, err
	}
	filtered := []api.ReplicationController{}
	for i := range controllers.Items {
		controller := &controllers.Items[i]
		if label.Matches(labels.Set(controller.Labels)) {
			rs.fillCurrentState(ctx, controller)
			filtered = append(filtered, *controller)
		}
	}
	controllers.Items = filtered
	return controllers, nil
}

// Update replaces a replication controller; the update must carry its
// current resourceVersion.
func (rs *REST) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	controller, ok := obj.(*api.ReplicationController)
	if !ok {
		return nil, registry.WrongKind("ReplicationController", obj)
	}
	if err := registry.CheckNamespace(ctx, "replicationController", &controller.TypeMeta); err != nil {
		return nil, err
	}
	if errs := validation.ValidateReplicationController(controller); len(errs) > 0 {
		return nil, apierrors.NewInvalid("replicationController", controller.ID, errs)
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.UpdateController(ctx, controller); err != nil {
			return nil, err
		}
		return rs.registry.GetController(ctx, controller.ID)
	}), nil
}

// Watch watches the controllers whose own labels match label. Every event
// sent carries the controller's current replica count, which costs a pod
// LIST per event. A controller relabeled into the selection arrives as
// MODIFIED and one relabeled out of it is never DELETED: watch.Filter sees
// one event at a time and cannot tell.
func (rs *REST) Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	if err := registry.CheckFields("replicationControllers", field); err != nil {
		return nil, err
	}
	incoming, err := rs.registry.WatchControllers(ctx, resourceVersion)
	if err != nil {
		return nil, err
	}
	return watch.Filter(incoming, func(e watch.Event) (watch.Event, bool) {
		controller, ok := e.Object.(*api.ReplicationController)
		if !ok {
			// An ERROR event: pass it on.
			return e, true
		}
		if !label.Matches(labels.Set(controller.Labels)) {
			return e, false
		}
		rs.fillCurrentState(ctx, controller)
		return e, true
	}), nil
}

// fillCurrentState sets currentState.replicas to the number of pods the
// controller's selector matches, whatever their state. A failed pod LIST
// leaves the count as stored, as in 2014.
func (rs *REST) fillCurrentState(ctx api.Context, controller *api.ReplicationController) {
	if rs.podLister == nil {
		return
	}
	list, err := rs.podLister.ListPods(ctx, labels.Set(controller.DesiredState.ReplicaSelector).AsSelector())
	if err != nil {
		glog.Errorf("cannot count the pods of controller %s: %v", controller.ID, err)
		return
	}
	controller.CurrentState.Replicas = len(list.Items)
}
