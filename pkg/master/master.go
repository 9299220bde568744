package master

// Follows kubernetes/kubernetes pkg/master/master.go (Master.init) as of
// v0.4 (October 2014).

import (
	"time"

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

// DefaultMinionCacheTTL is v0.4's -minion_cache_ttl.
const DefaultMinionCacheTTL = 30 * time.Second

// Config chooses how the storage reads pods and minions.
type Config struct {
	// Minions, when set, makes every GET and LIST of pods compute each
	// pod's status as v0.4 did, listing the minions through Minions once
	// per bound pod. v0.4's master passed its own client, so each of those
	// lists is a loopback HTTP request to the apiserver itself.
	Minions pod.MinionLister
	// MinionCacheTTL is how old the list of minions served may be;
	// minions created or deleted through the apiserver show at once. 0
	// reads etcd on every request.
	MinionCacheTTL time.Duration
}

// NewStorage returns the REST storage of every resource, keyed by the name
// it is served under, all on one etcd registry, with pods read as stored
// and minions read from etcd (no cache).
//
// Ours: the cheap read path, for tests that run the storage in-process; the
// apiserver builds its storage with New and reads pods as v0.4 did.
func NewStorage(helper tools.EtcdHelper) map[string]apiserver.RESTStorage {
	return New(helper, Config{})
}

// New returns the REST storage of every resource as config asks.
//
// Ours: v0.4's map also held "events"; it is left out (see absent.go).
func New(helper tools.EtcdHelper, config Config) map[string]apiserver.RESTStorage {
	registry := etcd.NewRegistry(helper)
	var minions minion.Registry = registry
	if config.MinionCacheTTL > 0 {
		minions = minion.NewCachingRegistry(registry, config.MinionCacheTTL)
	}
	return map[string]apiserver.RESTStorage{
		"pods":                   pod.NewREST(registry, config.Minions),
		"replicationControllers": controller.NewREST(registry, registry),
		"services":               service.NewREST(registry),
		"endpoints":              endpoint.NewREST(registry),
		"minions":                minion.NewREST(minions),
		"bindings":               binding.NewREST(registry),
	}
}
