package minion

// Follows kubernetes/kubernetes pkg/registry/minion/rest.go as of v0.4
// (October 2014).
//
// Ours: v0.4's master put this registry behind a health-checking one, which
// called every kubelet's /healthz on each refresh of the minion cache
// (caching_registry.go) and left out the minions that did not answer.
// Hollow nodes serve no kubelet port, so every stored minion is listed: a
// minion stops counting only when it is deleted, and the health checks'
// calls are missing from the apiserver's load.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry"
)

// REST serves minions.
type REST struct {
	registry Registry
}

// NewREST returns the REST storage of minions on registry.
func NewREST(registry Registry) *REST {
	return &REST{registry: registry}
}

var _ apiserver.RESTStorage = &REST{}

// New returns an empty minion to decode a request into.
func (*REST) New() api.Object {
	return &api.Minion{}
}

// Create registers a minion.
//
// Ours: the minion is validated (v0.4 checked only for an id).
func (rs *REST) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	minion, ok := obj.(*api.Minion)
	if !ok {
		return nil, registry.WrongKind("Minion", obj)
	}
	if errs := validation.ValidateMinion(minion); len(errs) > 0 {
		return nil, apierrors.NewInvalid("minion", minion.ID, errs)
	}
	if err := registry.BeforeCreate("minion", &minion.TypeMeta); err != nil {
		return nil, err
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.CreateMinion(ctx, minion); err != nil {
			return nil, err
		}
		return rs.registry.GetMinion(ctx, minion.ID)
	}), nil
}

// Delete removes the minion id; a missing minion is reported at once.
func (rs *REST) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	if _, err := rs.registry.GetMinion(ctx, id); err != nil {
		return nil, err
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.DeleteMinion(ctx, id); err != nil {
			return nil, err
		}
		return &api.Status{Status: api.StatusSuccess}, nil
	}), nil
}

// Get returns the minion id.
//
// Ours: v0.4 answered a missing minion with a 500 ("The requested resource
// does not exist."); it is a 404 here.
func (rs *REST) Get(ctx api.Context, id string) (api.Object, error) {
	return rs.registry.GetMinion(ctx, id)
}

// List returns every minion; minions carry no labels, so the selectors are
// not consulted, as in 2014.
func (rs *REST) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	return rs.registry.ListMinions(ctx)
}

// Update is refused: minions are only created and deleted.
//
// Ours: a 405 rather than v0.4's plain error (a 500).
func (rs *REST) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	return nil, apierrors.NewMethodNotSupported("minions", "PUT")
}
