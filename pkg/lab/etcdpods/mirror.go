package etcdpods

import (
	"fmt"
	"path"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2error"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v2store"
	v1 "k8s.io/api/core/v1"
)

// PodOfV1 returns the 2014 pod the laboratory sees in a v1 pod: its name
// as its ID, its node as its host and its state as its status.
func PodOfV1(p *v1.Pod) *api.Pod {
	out := &api.Pod{}
	out.ID = p.Name
	out.UID = string(p.UID)
	out.Labels = p.Labels
	out.DesiredState.Host = p.Spec.NodeName
	out.CurrentState.Host = p.Spec.NodeName
	switch {
	case p.DeletionTimestamp != nil, p.Status.Phase == v1.PodSucceeded, p.Status.Phase == v1.PodFailed:
		out.CurrentState.Status = api.PodTerminated
	case p.Status.Phase == v1.PodRunning:
		out.CurrentState.Status = api.PodRunning
	default:
		out.CurrentState.Status = api.PodWaiting
	}
	return out
}

// V1Mirror keeps a v2 store of 2014's pods in step with the v1 pods of one
// namespace of today's stack, as the laboratory's reader of today's etcd
// sees them written: each pod stored as our apiserver would store the pod
// PodOfV1 makes of it, under /registry/pods/<name>. Served as a learner's
// store is (ServeFedStore), it lets the laboratory read today's pods the
// way it reads 2014's. Pods of other namespaces are left out.
type V1Mirror struct {
	store v2store.Store
	ns    string
}

// NewV1Mirror returns an empty mirror of namespace ns.
func NewV1Mirror(ns string) *V1Mirror {
	return &V1Mirror{store: v2store.New(etcdserver.StoreClusterPrefix, etcdserver.StoreKeysPrefix), ns: ns}
}

// Store is the mirror's v2 store.
func (m *V1Mirror) Store() v2store.Store { return m.store }

// Apply writes a pod's change to the store and returns the store's event
// of it, nil for a pod of another namespace. A pod deleted is removed; one
// the store does not hold is not an error, and has no event.
func (m *V1Mirror) Apply(deleted bool, pod *v1.Pod) (*v2store.Event, error) {
	if pod.Namespace != m.ns {
		return nil, nil
	}
	// Below the v2 API's keys prefix, as a member keeps its keys.
	key := path.Join(etcdserver.StoreKeysPrefix, Prefix, pod.Name)
	if deleted {
		e, err := m.store.Delete(key, false, false)
		if v2err, ok := err.(*v2error.Error); ok && v2err.ErrorCode == v2error.EcodeKeyNotFound {
			return nil, nil
		}
		return e, err
	}
	data, err := api.Encode(PodOfV1(pod))
	if err != nil {
		return nil, fmt.Errorf("pod %s: %v", pod.Name, err)
	}
	return m.store.Set(key, false, string(data), v2store.TTLOptionSet{ExpireTime: v2store.Permanent})
}
