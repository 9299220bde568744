package etcd

// Follows kubernetes/kubernetes pkg/registry/etcd/etcd.go as of v0.4
// (October 2014), the minion part: minions live under /registry/minions.

import "github.com/kube-rewind/kube-rewind/pkg/api"

// ListMinions returns every minion, under both "minions" and "items" as
// v1beta1 sent them.
func (r *Registry) ListMinions(ctx api.Context) (*api.MinionList, error) {
	list := &api.MinionList{}
	if err := r.ExtractList(minionsPrefix, &list.Items, &list.ResourceVersion); err != nil {
		return nil, interpretListError(err)
	}
	list.Minions = list.Items
	return list, nil
}

// CreateMinion stores a new minion.
func (r *Registry) CreateMinion(ctx api.Context, minion *api.Minion) error {
	key, err := makeMinionKey(minion.ID)
	if err != nil {
		return err
	}
	return interpretCreateError(r.CreateObj(key, minion), "minion", minion.ID)
}

// GetMinion returns the minion id.
func (r *Registry) GetMinion(ctx api.Context, id string) (*api.Minion, error) {
	key, err := makeMinionKey(id)
	if err != nil {
		return nil, err
	}
	var minion api.Minion
	if err := r.ExtractObj(key, &minion, false); err != nil {
		return nil, interpretGetError(err, "minion", id)
	}
	return &minion, nil
}

// DeleteMinion deletes the minion id.
func (r *Registry) DeleteMinion(ctx api.Context, id string) error {
	key, err := makeMinionKey(id)
	if err != nil {
		return err
	}
	return interpretDeleteError(r.Delete(key, true), "minion", id)
}
