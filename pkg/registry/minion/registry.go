package minion

// Follows kubernetes/kubernetes pkg/registry/minion/registry.go as of v0.4
// (October 2014).

import "github.com/kube-rewind/kube-rewind/pkg/api"

// Registry stores minions.
type Registry interface {
	ListMinions(ctx api.Context) (*api.MinionList, error)
	CreateMinion(ctx api.Context, minion *api.Minion) error
	GetMinion(ctx api.Context, minionID string) (*api.Minion, error)
	DeleteMinion(ctx api.Context, minionID string) error
}
