package client

// Follows kubernetes/kubernetes pkg/client/client.go as of v0.4 (October
// 2014): one Interface made of one small interface per resource, every call
// taking an api.Context first.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Interface holds the methods for every resource the 2014 API served.
type Interface interface {
	PodInterface
	ReplicationControllerInterface
	ServiceInterface
	EndpointsInterface
	VersionInterface
	MinionInterface
}

// PodInterface works with pods.
type PodInterface interface {
	ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error)
	GetPod(ctx api.Context, id string) (*api.Pod, error)
	DeletePod(ctx api.Context, id string) error
	CreatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error)
	UpdatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error)

	// Ours: v0.4's client had no pod watch (its scheduler read pods through
	// a cache of its own) and bound pods with a raw POST. The hollow nodes
	// and the modern build's pod informer need both.
	WatchPods(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
	CreateBinding(ctx api.Context, binding *api.Binding) error
}

// ReplicationControllerInterface works with replication controllers.
type ReplicationControllerInterface interface {
	ListReplicationControllers(ctx api.Context, selector labels.Selector) (*api.ReplicationControllerList, error)
	GetReplicationController(ctx api.Context, id string) (*api.ReplicationController, error)
	CreateReplicationController(ctx api.Context, ctrl *api.ReplicationController) (*api.ReplicationController, error)
	UpdateReplicationController(ctx api.Context, ctrl *api.ReplicationController) (*api.ReplicationController, error)
	DeleteReplicationController(ctx api.Context, id string) error
	WatchReplicationControllers(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
}

// ServiceInterface works with services.
type ServiceInterface interface {
	ListServices(ctx api.Context, selector labels.Selector) (*api.ServiceList, error)
	GetService(ctx api.Context, id string) (*api.Service, error)
	CreateService(ctx api.Context, srv *api.Service) (*api.Service, error)
	UpdateService(ctx api.Context, srv *api.Service) (*api.Service, error)
	DeleteService(ctx api.Context, id string) error
	WatchServices(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)
}

// EndpointsInterface works with endpoints.
type EndpointsInterface interface {
	ListEndpoints(ctx api.Context, selector labels.Selector) (*api.EndpointsList, error)
	GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error)
	WatchEndpoints(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error)

	// Ours: v0.4 had these on the concrete *Client only; being in the
	// interface lets the fake record them.
	CreateEndpoints(ctx api.Context, endpoints *api.Endpoints) (*api.Endpoints, error)
	UpdateEndpoints(ctx api.Context, endpoints *api.Endpoints) (*api.Endpoints, error)
}

// VersionInterface reads the server's version.
type VersionInterface interface {
	ServerVersion() (*VersionInfo, error)
}

// MinionInterface works with minions.
type MinionInterface interface {
	ListMinions() (*api.MinionList, error)

	// Ours: v0.4 registered minions from an apiserver flag; the hollow nodes
	// register themselves.
	CreateMinion(minion *api.Minion) (*api.Minion, error)
	DeleteMinion(id string) error
}

// VersionInfo is what GET /version returns.
type VersionInfo struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
}
