package registry

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// WrongKind is the error for a body that decoded into another kind than
// the resource's.
//
// Ours: v0.4 answered this with a plain error (a 500), or a panic where it
// did not check.
func WrongKind(kind string, obj api.Object) error {
	return apierrors.NewBadRequest(fmt.Sprintf("expected a %s, got %s", kind, api.KindOf(obj)))
}

// CheckNamespace fills meta's namespace from ctx and refuses (409, as v0.4
// did) an object that names another namespace than ctx.
func CheckNamespace(ctx api.Context, kind string, meta *api.TypeMeta) error {
	if !api.ValidNamespace(ctx, meta) {
		return apierrors.NewConflict(kind, meta.Namespace, fmt.Errorf("%s.namespace does not match the namespace of the request", kind))
	}
	return nil
}

// BeforeCreate refuses an object that already carries a resourceVersion and
// stamps a new one with its creation time and a uid.
//
// Ours: v0.4 failed such a create deep in storage with a plain error (a
// 500); it is a 422 on the field here. v0.4's objects had a uid field
// (kubernetes/kubernetes commit 0a4d4b43f, 2014-10-03), but its server
// never filled it, and its v1beta1 conversion dropped any uid a client
// sent, so no 2014 answer carried one. Here every object gets a uid on
// create and every answer shows it, because the modern build's
// ownerReferences point at it.
func BeforeCreate(kind string, meta *api.TypeMeta) error {
	if meta.ResourceVersion != 0 {
		return apierrors.NewInvalid(kind, meta.ID, apierrors.ErrorList{apierrors.NewFieldInvalid("resourceVersion", meta.ResourceVersion)})
	}
	meta.CreationTimestamp = util.Now()
	meta.UID = uuid.New().String()
	return nil
}

// NewTimeBasedID returns a new time-based (version 1) UUID, the form 2014
// gave to pods and controllers created without an id.
func NewTimeBasedID() string {
	id, err := uuid.NewUUID()
	if err != nil {
		// Without a usable clock sequence fall back to a random UUID:
		// still unique, and still a valid id.
		return uuid.New().String()
	}
	return id.String()
}
