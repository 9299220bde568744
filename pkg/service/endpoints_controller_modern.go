//go:build modern

package service

// Follows kubernetes/kubernetes pkg/controller/endpoint/endpoints_controller.go
// as of v1.3x, the informer-driven design that replaced the polling loop
// (history: endpoints-informer). 2014: endpoints_controller.go lists every
// service and its pods every 10 s. The builds export different entry
// points, as the replication manager's do.
//
// Ours: cut down to what a 2014 Endpoints object can hold, a flat list of
// "ip:port": no subsets, no not-ready addresses, no EndpointSlices.

import (
	"context"
	"net"
	"reflect"
	"strconv"
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	v1 "k8s.io/api/core/v1"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// EndpointController keeps every service's endpoints equal to the
// addresses of the ready pods its selector picks.
type EndpointController struct {
	client client.Interface

	serviceLister  corelisters.ServiceLister
	servicesSynced cache.InformerSynced
	podLister      corelisters.PodLister
	podsSynced     cache.InformerSynced
	// endpointsLister is the current state, read instead of a GET per
	// service per pass.
	endpointsLister corelisters.EndpointsLister
	endpointsSynced cache.InformerSynced

	// queue holds service keys. One big service being recomputed no
	// longer holds up the others: the workers take keys independently.
	queue workqueue.TypedRateLimitingInterface[string]
}

// NewEndpointController returns a controller fed by shared informers and
// writing through c.
func NewEndpointController(podInformer coreinformers.PodInformer, serviceInformer coreinformers.ServiceInformer,
	endpointsInformer coreinformers.EndpointsInformer, c client.Interface) *EndpointController {
	e := &EndpointController{
		client: c,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "endpoint"},
		),
	}
	serviceInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    e.onServiceUpdate,
		UpdateFunc: func(old, cur interface{}) { e.onServiceUpdate(cur) },
		DeleteFunc: e.onServiceUpdate,
	})
	e.serviceLister = serviceInformer.Lister()
	e.servicesSynced = serviceInformer.Informer().HasSynced

	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    e.addPod,
		UpdateFunc: e.updatePod,
		DeleteFunc: e.deletePod,
	})
	e.podLister = podInformer.Lister()
	e.podsSynced = podInformer.Informer().HasSynced

	// Someone deleting an Endpoints object gets it recreated; one that
	// reaches the cache while its service waits out a failure is synced
	// (onEndpointsUpdate).
	endpointsInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    e.onEndpointsAdd,
		UpdateFunc: e.onEndpointsUpdate,
		DeleteFunc: e.onServiceUpdate,
	})
	e.endpointsLister = endpointsInformer.Lister()
	e.endpointsSynced = endpointsInformer.Informer().HasSynced
	return e
}

// Run waits for the caches, starts workers and blocks until ctx is done.
func (e *EndpointController) Run(ctx context.Context, workers int) {
	defer e.queue.ShutDown()
	glog.Infof("starting endpoints controller with %d workers", workers)
	defer glog.Infof("shutting down endpoints controller")
	if !cache.WaitForNamedCacheSync("endpoint", ctx.Done(), e.podsSynced, e.servicesSynced, e.endpointsSynced) {
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait.UntilWithContext(ctx, e.worker, time.Second)
		}()
	}
	<-ctx.Done()
	e.queue.ShutDown()
	wg.Wait()
}

// onServiceUpdate queues a service (or, from a tombstone, a deleted one;
// the key of an Endpoints object is its service's).
func (e *EndpointController) onServiceUpdate(obj interface{}) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		glog.Errorf("couldn't get key for %#v: %v", obj, err)
		return
	}
	e.queue.Add(key)
}

// onEndpointsAdd and onEndpointsUpdate queue the service of an Endpoints
// object that appeared or changed in the cache while the service waits out
// a failed sync.
//
// Ours: upstream watches Endpoints for deletions only. A service whose
// write failed because the cache was behind (a PUT at an old
// resourceVersion, or a POST of an object the cache had not seen yet)
// waits out its backoff, 5 ms doubling with every failure up to 1000 s.
// Upstream retries fifteen times, the last after 82 s, then drops it; ours
// never drops it. Either way it is synced sooner only when a pod it
// selects changes, or the informers resync, every 12 to 24 hours. After
// an apiserver restart the endpoints informer can trail for seconds, its
// relist backing off, while every pod turning running queues the service
// again: each sync conflicts, the seventeenth failure puts the next try
// more than five minutes away and the nineteenth 1000 s, and with the
// last pods running no event is left to come. Here the cache catching up
// ends the wait at once. A write that succeeded leaves no failure behind,
// so its echo in the cache costs no sync, as upstream (one that arrives
// before the worker has forgotten the failures costs a sync that writes
// nothing). At start the informer adds every object before any sync has
// failed, and queues nothing.
func (e *EndpointController) onEndpointsAdd(obj interface{}) {
	e.queueIfFailed(obj.(*v1.Endpoints))
}

func (e *EndpointController) onEndpointsUpdate(old, cur interface{}) {
	oldEndpoints, curEndpoints := old.(*v1.Endpoints), cur.(*v1.Endpoints)
	if oldEndpoints.ResourceVersion == curEndpoints.ResourceVersion {
		return
	}
	e.queueIfFailed(curEndpoints)
}

// queueIfFailed queues the service of endpoints if its last sync failed.
func (e *EndpointController) queueIfFailed(endpoints *v1.Endpoints) {
	key, err := cache.MetaNamespaceKeyFunc(endpoints)
	if err != nil {
		return
	}
	if e.queue.NumRequeues(key) > 0 {
		e.queue.Add(key)
	}
}

// getPodServiceMemberships returns the keys of the services selecting pod.
func (e *EndpointController) getPodServiceMemberships(pod *v1.Pod) []string {
	services, err := e.serviceLister.Services(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var keys []string
	for _, svc := range services {
		if svc.Spec.Selector == nil {
			continue
		}
		if labels.Set(svc.Spec.Selector).AsSelectorPreValidated().Matches(labels.Set(pod.Labels)) {
			if key, err := cache.MetaNamespaceKeyFunc(svc); err == nil {
				keys = append(keys, key)
			}
		}
	}
	return keys
}

func (e *EndpointController) addPod(obj interface{}) {
	for _, key := range e.getPodServiceMemberships(obj.(*v1.Pod)) {
		e.queue.Add(key)
	}
}

// updatePod queues the services of the pod, and, when its labels changed,
// those it left.
func (e *EndpointController) updatePod(old, cur interface{}) {
	oldPod, curPod := old.(*v1.Pod), cur.(*v1.Pod)
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		return
	}
	e.addPod(curPod)
	if !reflect.DeepEqual(curPod.Labels, oldPod.Labels) {
		e.addPod(oldPod)
	}
}

func (e *EndpointController) deletePod(obj interface{}) {
	pod, ok := obj.(*v1.Pod)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			return
		}
		if pod, ok = tombstone.Obj.(*v1.Pod); !ok {
			return
		}
	}
	e.addPod(pod)
}

func (e *EndpointController) worker(ctx context.Context) {
	for e.processNextWorkItem(ctx) {
	}
}

func (e *EndpointController) processNextWorkItem(ctx context.Context) bool {
	key, quit := e.queue.Get()
	if quit {
		return false
	}
	defer e.queue.Done(key)
	if err := e.syncService(ctx, key); err != nil {
		errorsTotal.Inc()
		glog.Errorf("syncing endpoints of %q failed: %v", key, err)
		e.queue.AddRateLimited(key)
		return true
	}
	e.queue.Forget(key)
	return true
}

// syncService recomputes one service's endpoints from the caches and
// writes them if they changed: a POST when the object does not exist yet, a
// PUT at the cached resourceVersion otherwise. An unchanged service costs
// no request.
func (e *EndpointController) syncService(ctx context.Context, key string) error {
	passes.Inc()
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	service, err := e.serviceLister.Services(namespace).Get(name)
	if k8serrors.IsNotFound(err) {
		// Ours: upstream deletes the endpoints here; our apiserver deletes
		// them together with the service, as v0.4's did.
		return nil
	}
	if err != nil {
		return err
	}
	if service.Spec.Selector == nil {
		// A service without a selector has endpoints managed by hand.
		return nil
	}
	pods, err := e.podLister.Pods(namespace).List(labels.Set(service.Spec.Selector).AsSelectorPreValidated())
	if err != nil {
		return err
	}
	containerPort := conversion.ServiceFromV1(service).ContainerPort
	endpoints := []string{}
	for _, pod := range pods {
		// Only pods that can serve: running, with an address, ready. (v1
		// keeps not-ready pods apart as notReadyAddresses; a 2014 list has
		// no place for them. 2014: every matching pod with an IP.)
		if !podServes(pod) {
			continue
		}
		manifest := conversion.PodFromV1(pod).DesiredState.Manifest
		port, err := findPort(&manifest, containerPort)
		if err != nil {
			glog.Errorf("failed to find a port of pod %s for service %s: %v", pod.Name, key, err)
			continue
		}
		endpoints = append(endpoints, net.JoinHostPort(pod.Status.PodIP, strconv.Itoa(port)))
	}

	nsCtx := api.WithNamespace(ctx, namespace)
	current, err := e.endpointsLister.Endpoints(namespace).Get(name)
	if k8serrors.IsNotFound(err) {
		writes.WithLabelValues("POST").Inc()
		_, err = e.client.CreateEndpoints(nsCtx, &api.Endpoints{
			TypeMeta:  api.TypeMeta{ID: name, Namespace: namespace},
			Endpoints: endpoints,
		})
		return err
	}
	if err != nil {
		return err
	}
	old := conversion.EndpointsFromV1(current)
	if endpointsEqual(old, endpoints) {
		glog.V(4).Infof("endpoints of %s are unchanged, skipping the update", key)
		return nil
	}
	old.Endpoints = endpoints
	writes.WithLabelValues("PUT").Inc()
	_, err = e.client.UpdateEndpoints(nsCtx, old)
	return err
}

// podServes reports whether pod belongs in its services' endpoints.
func podServes(pod *v1.Pod) bool {
	if pod.Status.PodIP == "" || pod.DeletionTimestamp != nil {
		return false
	}
	if pod.Status.Phase == v1.PodFailed || pod.Status.Phase == v1.PodSucceeded {
		return false
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodReady {
			return c.Status == v1.ConditionTrue
		}
	}
	return false
}
