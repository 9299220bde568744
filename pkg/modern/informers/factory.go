package informers

import (
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
)

// SharedInformerFactory hands out one shared informer per resource and
// starts them together.
type SharedInformerFactory struct {
	client client.Interface
	resync time.Duration

	mu        sync.Mutex
	informers map[string]cache.SharedIndexInformer
	started   map[string]bool
	wg        sync.WaitGroup
}

// NewSharedInformerFactory returns a factory whose informers list and watch
// through c and replay their caches to handlers every resync (0: never).
func NewSharedInformerFactory(c client.Interface, resync time.Duration) *SharedInformerFactory {
	return &SharedInformerFactory{
		client:    c,
		resync:    resync,
		informers: map[string]cache.SharedIndexInformer{},
		started:   map[string]bool{},
	}
}

// informerFor returns the informer of resource, building it on first use.
// Every cache is indexed by namespace, which listers use for
// Pods(namespace).List.
func (f *SharedInformerFactory) informerFor(resource string, example runtime.Object, lw *ListWatch) cache.SharedIndexInformer {
	f.mu.Lock()
	defer f.mu.Unlock()
	if informer, ok := f.informers[resource]; ok {
		return informer
	}
	informer := cache.NewSharedIndexInformerWithOptions(lw, example, cache.SharedIndexInformerOptions{
		ResyncPeriod:      f.resync,
		Indexers:          cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc},
		ObjectDescription: resource,
	})
	f.informers[resource] = informer
	return informer
}

// Start runs every informer asked for so far that is not running yet,
// until stopCh closes.
func (f *SharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for resource, informer := range f.informers {
		if f.started[resource] {
			continue
		}
		f.started[resource] = true
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			informer.Run(stopCh)
		}()
	}
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// closes, and reports which ones synced.
func (f *SharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[string]bool {
	f.mu.Lock()
	started := map[string]cache.SharedIndexInformer{}
	for resource, informer := range f.informers {
		if f.started[resource] {
			started[resource] = informer
		}
	}
	f.mu.Unlock()
	out := map[string]bool{}
	for resource, informer := range started {
		out[resource] = cache.WaitForCacheSync(stopCh, informer.HasSynced)
	}
	return out
}

// Shutdown waits for the informers to stop after their stopCh closed.
func (f *SharedInformerFactory) Shutdown() {
	f.wg.Wait()
}

// Pods returns the shared pod informer.
func (f *SharedInformerFactory) Pods() coreinformers.PodInformer {
	return &informer[corelisters.PodLister]{f, pods}
}

// ReplicationControllers returns the shared replication controller informer.
func (f *SharedInformerFactory) ReplicationControllers() coreinformers.ReplicationControllerInformer {
	return &informer[corelisters.ReplicationControllerLister]{f, replicationControllers}
}

// Services returns the shared service informer.
func (f *SharedInformerFactory) Services() coreinformers.ServiceInformer {
	return &informer[corelisters.ServiceLister]{f, services}
}

// Endpoints returns the shared endpoints informer.
func (f *SharedInformerFactory) Endpoints() coreinformers.EndpointsInformer {
	return &informer[corelisters.EndpointsLister]{f, endpoints}
}

// resource says how one resource is listed and watched through our
// client, how its objects cross to client-go's types, and how its lister
// reads the cache. L is the lister's type.
type resource[L any] struct {
	name    string
	example runtime.Object
	list    func(c client.Interface, ctx api.Context) (runtime.Object, error)
	watch   func(c client.Interface, ctx api.Context, rv uint64) (watch.Interface, error)
	convert func(obj api.Object) (runtime.Object, bool)
	lister  func(cache.Indexer) L
}

// informer is one resource's shared informer and lister; it satisfies
// client-go's coreinformers interface for that resource.
type informer[L any] struct {
	f *SharedInformerFactory
	r resource[L]
}

func (i *informer[L]) Informer() cache.SharedIndexInformer {
	c := i.f.client
	return i.f.informerFor(i.r.name, i.r.example, NewListWatch(
		func(ctx api.Context) (runtime.Object, error) { return i.r.list(c, ctx) },
		func(ctx api.Context, rv uint64) (watch.Interface, error) { return i.r.watch(c, ctx, rv) },
		i.r.convert,
	))
}

func (i *informer[L]) Lister() L {
	return i.r.lister(i.Informer().GetIndexer())
}

// items converts every object of a 2014 list.
func items[O, N any](in []O, convert func(*O) *N) []N {
	out := make([]N, len(in))
	for j := range in {
		out[j] = *convert(&in[j])
	}
	return out
}

// converter turns a 2014 object of type O from a watch event into its
// client-go form, and refuses any other type.
func converter[O api.Object, N runtime.Object](convert func(O) N) func(api.Object) (runtime.Object, bool) {
	return func(obj api.Object) (runtime.Object, bool) {
		o, ok := obj.(O)
		if !ok {
			return nil, false
		}
		return convert(o), true
	}
}

var pods = resource[corelisters.PodLister]{
	name:    "pods",
	example: &v1.Pod{},
	list: func(c client.Interface, ctx api.Context) (runtime.Object, error) {
		list, err := c.ListPods(ctx, labels.Everything())
		if err != nil {
			return nil, err
		}
		out := &v1.PodList{Items: items(list.Items, conversion.PodToV1)}
		out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
		return out, nil
	},
	watch: func(c client.Interface, ctx api.Context, rv uint64) (watch.Interface, error) {
		return c.WatchPods(ctx, labels.Everything(), labels.Everything(), rv)
	},
	convert: converter(conversion.PodToV1),
	lister:  corelisters.NewPodLister,
}

var replicationControllers = resource[corelisters.ReplicationControllerLister]{
	name:    "replicationControllers",
	example: &v1.ReplicationController{},
	list: func(c client.Interface, ctx api.Context) (runtime.Object, error) {
		list, err := c.ListReplicationControllers(ctx, labels.Everything())
		if err != nil {
			return nil, err
		}
		out := &v1.ReplicationControllerList{Items: items(list.Items, conversion.ReplicationControllerToV1)}
		out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
		return out, nil
	},
	watch: func(c client.Interface, ctx api.Context, rv uint64) (watch.Interface, error) {
		return c.WatchReplicationControllers(ctx, labels.Everything(), labels.Everything(), rv)
	},
	convert: converter(conversion.ReplicationControllerToV1),
	lister:  corelisters.NewReplicationControllerLister,
}

var services = resource[corelisters.ServiceLister]{
	name:    "services",
	example: &v1.Service{},
	list: func(c client.Interface, ctx api.Context) (runtime.Object, error) {
		list, err := c.ListServices(ctx, labels.Everything())
		if err != nil {
			return nil, err
		}
		out := &v1.ServiceList{Items: items(list.Items, conversion.ServiceToV1)}
		out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
		return out, nil
	},
	watch: func(c client.Interface, ctx api.Context, rv uint64) (watch.Interface, error) {
		return c.WatchServices(ctx, labels.Everything(), labels.Everything(), rv)
	},
	convert: converter(conversion.ServiceToV1),
	lister:  corelisters.NewServiceLister,
}

var endpoints = resource[corelisters.EndpointsLister]{
	name:    "endpoints",
	example: &v1.Endpoints{},
	list: func(c client.Interface, ctx api.Context) (runtime.Object, error) {
		list, err := c.ListEndpoints(ctx, labels.Everything())
		if err != nil {
			return nil, err
		}
		out := &v1.EndpointsList{Items: items(list.Items, conversion.EndpointsToV1)}
		out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
		return out, nil
	},
	watch: func(c client.Interface, ctx api.Context, rv uint64) (watch.Interface, error) {
		return c.WatchEndpoints(ctx, labels.Everything(), labels.Everything(), rv)
	},
	convert: converter(conversion.EndpointsToV1),
	lister:  corelisters.NewEndpointsLister,
}
