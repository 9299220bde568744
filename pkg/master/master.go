package master

// Follows kubernetes/kubernetes pkg/master/master.go (Master.init) as of
// v0.4 (October 2014).

import (
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/registry/binding"
	"github.com/kube-rewind/kube-rewind/pkg/registry/controller"
	"github.com/kube-rewind/kube-rewind/pkg/registry/endpoint"
	"github.com/kube-rewind/kube-rewind/pkg/registry/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/registry/minion"
	"github.com/kube-rewind/kube-rewind/pkg/registry/pod"
	"github.com/kube-rewind/kube-rewind/pkg/registry/service"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// The etcd registry serves every resource's Registry.
var (
	_ pod.Registry        = &etcd.Registry{}
	_ controller.Registry = &etcd.Registry{}
	_ service.Registry    = &etcd.Registry{}
	_ endpoint.Registry   = &etcd.Registry{}
	_ minion.Registry     = &etcd.Registry{}
	_ binding.Registry    = &etcd.Registry{}
)

// NewStorage returns the REST storage of every resource, keyed by the name
// it is served under, all on one etcd registry: v0.4's map without
// "events" (see absent.go).
func NewStorage(helper tools.EtcdHelper) map[string]apiserver.RESTStorage {
	registry := etcd.NewRegistry(helper)
	return map[string]apiserver.RESTStorage{
		"pods":                   pod.NewREST(registry),
		"replicationControllers": controller.NewREST(registry, registry),
		"services":               service.NewREST(registry),
		"endpoints":              endpoint.NewREST(registry),
		"minions":                minion.NewREST(registry),
		"bindings":               binding.NewREST(registry),
	}
}
