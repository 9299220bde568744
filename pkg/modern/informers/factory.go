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
	return &podInformer{f}
}

// ReplicationControllers returns the shared replication controller informer.
func (f *SharedInformerFactory) ReplicationControllers() coreinformers.ReplicationControllerInformer {
	return &rcInformer{f}
}

// Services returns the shared service informer.
func (f *SharedInformerFactory) Services() coreinformers.ServiceInformer {
	return &serviceInformer{f}
}

// Endpoints returns the shared endpoints informer.
func (f *SharedInformerFactory) Endpoints() coreinformers.EndpointsInformer {
	return &endpointsInformer{f}
}

type podInformer struct{ f *SharedInformerFactory }

func (i *podInformer) Informer() cache.SharedIndexInformer {
	c := i.f.client
	return i.f.informerFor("pods", &v1.Pod{}, NewListWatch(
		func(ctx api.Context) (runtime.Object, error) {
			list, err := c.ListPods(ctx, labels.Everything())
			if err != nil {
				return nil, err
			}
			out := &v1.PodList{}
			out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
			out.Items = make([]v1.Pod, len(list.Items))
			for j := range list.Items {
				out.Items[j] = *conversion.PodToV1(&list.Items[j])
			}
			return out, nil
		},
		func(ctx api.Context, rv uint64) (watch.Interface, error) {
			return c.WatchPods(ctx, labels.Everything(), labels.Everything(), rv)
		},
		func(obj api.Object) (runtime.Object, bool) {
			pod, ok := obj.(*api.Pod)
			if !ok {
				return nil, false
			}
			return conversion.PodToV1(pod), true
		},
	))
}

func (i *podInformer) Lister() corelisters.PodLister {
	return corelisters.NewPodLister(i.Informer().GetIndexer())
}

type rcInformer struct{ f *SharedInformerFactory }

func (i *rcInformer) Informer() cache.SharedIndexInformer {
	c := i.f.client
	return i.f.informerFor("replicationControllers", &v1.ReplicationController{}, NewListWatch(
		func(ctx api.Context) (runtime.Object, error) {
			list, err := c.ListReplicationControllers(ctx, labels.Everything())
			if err != nil {
				return nil, err
			}
			out := &v1.ReplicationControllerList{}
			out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
			out.Items = make([]v1.ReplicationController, len(list.Items))
			for j := range list.Items {
				out.Items[j] = *conversion.ReplicationControllerToV1(&list.Items[j])
			}
			return out, nil
		},
		func(ctx api.Context, rv uint64) (watch.Interface, error) {
			return c.WatchReplicationControllers(ctx, labels.Everything(), labels.Everything(), rv)
		},
		func(obj api.Object) (runtime.Object, bool) {
			rc, ok := obj.(*api.ReplicationController)
			if !ok {
				return nil, false
			}
			return conversion.ReplicationControllerToV1(rc), true
		},
	))
}

func (i *rcInformer) Lister() corelisters.ReplicationControllerLister {
	return corelisters.NewReplicationControllerLister(i.Informer().GetIndexer())
}

type serviceInformer struct{ f *SharedInformerFactory }

func (i *serviceInformer) Informer() cache.SharedIndexInformer {
	c := i.f.client
	return i.f.informerFor("services", &v1.Service{}, NewListWatch(
		func(ctx api.Context) (runtime.Object, error) {
			list, err := c.ListServices(ctx, labels.Everything())
			if err != nil {
				return nil, err
			}
			out := &v1.ServiceList{}
			out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
			out.Items = make([]v1.Service, len(list.Items))
			for j := range list.Items {
				out.Items[j] = *conversion.ServiceToV1(&list.Items[j])
			}
			return out, nil
		},
		func(ctx api.Context, rv uint64) (watch.Interface, error) {
			return c.WatchServices(ctx, labels.Everything(), labels.Everything(), rv)
		},
		func(obj api.Object) (runtime.Object, bool) {
			svc, ok := obj.(*api.Service)
			if !ok {
				return nil, false
			}
			return conversion.ServiceToV1(svc), true
		},
	))
}

func (i *serviceInformer) Lister() corelisters.ServiceLister {
	return corelisters.NewServiceLister(i.Informer().GetIndexer())
}

type endpointsInformer struct{ f *SharedInformerFactory }

func (i *endpointsInformer) Informer() cache.SharedIndexInformer {
	c := i.f.client
	return i.f.informerFor("endpoints", &v1.Endpoints{}, NewListWatch(
		func(ctx api.Context) (runtime.Object, error) {
			list, err := c.ListEndpoints(ctx, labels.Everything())
			if err != nil {
				return nil, err
			}
			out := &v1.EndpointsList{}
			out.ResourceVersion = conversion.ResourceVersionToV1(list.ResourceVersion)
			out.Items = make([]v1.Endpoints, len(list.Items))
			for j := range list.Items {
				out.Items[j] = *conversion.EndpointsToV1(&list.Items[j])
			}
			return out, nil
		},
		func(ctx api.Context, rv uint64) (watch.Interface, error) {
			return c.WatchEndpoints(ctx, labels.Everything(), labels.Everything(), rv)
		},
		func(obj api.Object) (runtime.Object, bool) {
			eps, ok := obj.(*api.Endpoints)
			if !ok {
				return nil, false
			}
			return conversion.EndpointsToV1(eps), true
		},
	))
}

func (i *endpointsInformer) Lister() corelisters.EndpointsLister {
	return corelisters.NewEndpointsLister(i.Informer().GetIndexer())
}
