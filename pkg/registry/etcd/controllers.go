package etcd

// Follows kubernetes/kubernetes pkg/registry/etcd/etcd.go as of v0.4
// (October 2014), the replication controller part.

import (
	"bytes"
	"encoding/json"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// ListControllers returns every replication controller.
func (r *Registry) ListControllers(ctx api.Context) (*api.ReplicationControllerList, error) {
	list := &api.ReplicationControllerList{}
	if err := r.ExtractList(controllersPrefix, &list.Items, &list.ResourceVersion); err != nil {
		return nil, interpretListError(err)
	}
	return list, nil
}

// WatchControllers watches every replication controller from
// resourceVersion (0: the current ones first).
func (r *Registry) WatchControllers(ctx api.Context, resourceVersion uint64) (watch.Interface, error) {
	return r.WatchList(controllersPrefix, resourceVersion, tools.Everything)
}

// GetController returns the replication controller id.
func (r *Registry) GetController(ctx api.Context, id string) (*api.ReplicationController, error) {
	key, err := makeControllerKey(id)
	if err != nil {
		return nil, err
	}
	var controller api.ReplicationController
	if err := r.ExtractObj(key, &controller, false); err != nil {
		return nil, interpretGetError(err, "replicationController", id)
	}
	return &controller, nil
}

// CreateController stores a new replication controller.
func (r *Registry) CreateController(ctx api.Context, controller *api.ReplicationController) error {
	key, err := makeControllerKey(controller.ID)
	if err != nil {
		return err
	}
	return interpretCreateError(r.CreateObj(key, controller), "replicationController", controller.ID)
}

// UpdateController replaces a replication controller: compare-and-swap on
// its resourceVersion, or a create when it carries none (which fails with
// a conflict if the controller exists).
//
// Ours: v0.4 stored the controller as sent. Here the stored controller is
// read first to keep the server-owned fields: generation goes up by one
// when desiredState changed (the modern manager compares it with
// observedGeneration), and uid and creationTimestamp are kept when the
// update leaves them out. It costs one GET per update.
func (r *Registry) UpdateController(ctx api.Context, controller *api.ReplicationController) error {
	key, err := makeControllerKey(controller.ID)
	if err != nil {
		return err
	}
	var old api.ReplicationController
	if err := r.ExtractObj(key, &old, true); err != nil {
		return interpretGetError(err, "replicationController", controller.ID)
	}
	if old.ResourceVersion == 0 {
		controller.Generation = 1
	} else {
		controller.Generation = old.Generation
		if !sameJSON(&old.DesiredState, &controller.DesiredState) {
			controller.Generation++
		}
		keepIdentity(&controller.TypeMeta, &old.TypeMeta)
	}
	return interpretUpdateError(r.SetObj(key, controller), "replicationController", controller.ID)
}

// sameJSON reports whether a and b encode to the same JSON, which treats a
// nil map and an empty one alike, as storage does.
func sameJSON(a, b interface{}) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

// DeleteController deletes the replication controller id.
func (r *Registry) DeleteController(ctx api.Context, id string) error {
	key, err := makeControllerKey(id)
	if err != nil {
		return err
	}
	return interpretDeleteError(r.Delete(key, false), "replicationController", id)
}
