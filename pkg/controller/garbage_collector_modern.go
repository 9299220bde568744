//go:build modern

package controller

// A stand-in for the pod side of today's garbage collector, after
// kubernetes/kubernetes pkg/controller/garbagecollector as of v1.37
// (attemptToDeleteItem, isDangling, the absent-owner cache), for the one
// owner our API has: the replication controller (history:
// garbage-collector).
//
// ControllerRef made a pod name its controller by uid. Deleting the
// controller leaves the pod naming a uid that no longer exists: no
// controller counts it, and none may adopt it, so a controller recreated
// with the same selector creates its pods beside the old ones, which
// run on unowned. Today's kube-controller-manager runs a garbage
// collector that deletes such a pod once every owner it names is gone
// (background cascading deletion: the owner goes first, its dependents
// after). 2014: the manager owned pods by selector alone, so a recreated
// controller counted the old pods as its own; nothing was left over.
//
// Ours: upstream's collector watches every resource through the metadata
// API and keeps a graph of owners and dependents. The stand-in reads the
// pod and controller informers the replication manager already shares,
// and knows only replication controllers as owners (of any apiVersion):
// a reference to another kind counts as an owner that exists. There are
// no finalizers or deletionTimestamps in our API, so there is no
// foreground deletion and no orphaning; background is all there is.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/prometheus/client_golang/prometheus"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/lru"
)

// ConcurrentGCSyncs is how many pods the collector works on at once
// (kube-controller-manager's --concurrent-gc-syncs).
const ConcurrentGCSyncs = 20

// ownerUIDIndex indexes the pod cache by the uids a pod's ownerReferences
// name.
const ownerUIDIndex = "garbageCollectorOwnerUID"

// absentOwnerCacheSize is how many owners known to be gone are remembered,
// as upstream's absentOwnerCache.
const absentOwnerCacheSize = 500

var gcDeletes = prometheus.NewCounter(prometheus.CounterOpts{
	Name: "garbage_collector_pod_deletes_total",
	Help: "Pods deleted because every owner they named was gone (stand-in for the garbage collector).",
})

// GarbageCollector deletes pods whose owners are all gone.
type GarbageCollector struct {
	kubeClient client.Interface

	podLister  corelisters.PodLister
	podIndexer cache.Indexer
	podsSynced cache.InformerSynced
	rcLister   corelisters.ReplicationControllerLister
	rcsSynced  cache.InformerSynced

	// queue holds the keys of pods to check: dependents of a deleted
	// controller, and pods naming an owner the cache has not seen.
	queue workqueue.TypedRateLimitingInterface[string]

	// absentOwners remembers the uids of owners seen deleted or found
	// missing, so that the dependents of one owner cost one lookup.
	mu           sync.Mutex
	absentOwners *lru.Cache
}

// NewGarbageCollector returns a collector fed by the shared pod and
// controller informers, deleting through kubeClient.
func NewGarbageCollector(podInformer coreinformers.PodInformer, rcInformer coreinformers.ReplicationControllerInformer, kubeClient client.Interface) *GarbageCollector {
	gc := &GarbageCollector{
		kubeClient:   kubeClient,
		absentOwners: lru.New(absentOwnerCacheSize),
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "garbage_collector_attempt_to_delete"},
		),
	}
	podInformer.Informer().AddIndexers(cache.Indexers{ownerUIDIndex: func(obj interface{}) ([]string, error) {
		pod, ok := obj.(*v1.Pod)
		if !ok {
			return nil, nil
		}
		var uids []string
		for _, ref := range pod.OwnerReferences {
			uids = append(uids, string(ref.UID))
		}
		return uids, nil
	}})
	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    gc.checkPod,
		UpdateFunc: func(_, cur interface{}) { gc.checkPod(cur) },
	})
	gc.podLister = podInformer.Lister()
	gc.podIndexer = podInformer.Informer().GetIndexer()
	gc.podsSynced = podInformer.Informer().HasSynced

	rcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		UpdateFunc: gc.controllerUpdated,
		DeleteFunc: func(obj interface{}) {
			if tombstone, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
			}
			if rc, ok := obj.(*v1.ReplicationController); ok {
				gc.ownerDeleted(rc)
			}
		},
	})
	gc.rcLister = rcInformer.Lister()
	gc.rcsSynced = rcInformer.Informer().HasSynced
	return gc
}

// RegisterMetrics adds the collector's counter to r.
func (gc *GarbageCollector) RegisterMetrics(r prometheus.Registerer) {
	r.MustRegister(gcDeletes)
}

// controllerUpdated handles the controller informer's update event. A
// controller deleted and recreated under its name between two watch
// events (a relist finding it so) arrives as an update with a new uid:
// the old one is gone, and its pods with it.
func (gc *GarbageCollector) controllerUpdated(old, cur interface{}) {
	if o, c := old.(*v1.ReplicationController), cur.(*v1.ReplicationController); o.UID != c.UID {
		gc.ownerDeleted(o)
	}
}

// ownerDeleted remembers a deleted controller and queues every pod that
// names it, as upstream's graph builder queues a deleted node's
// dependents.
func (gc *GarbageCollector) ownerDeleted(rc *v1.ReplicationController) {
	pods, err := gc.podIndexer.ByIndex(ownerUIDIndex, string(rc.UID))
	if err != nil || len(pods) == 0 {
		return
	}
	gc.setAbsent(rc.UID)
	for _, obj := range pods {
		gc.enqueue(obj)
	}
}

// checkPod queues a pod that names a replication controller the cache does
// not hold, as upstream's graph builder checks an owner it has not
// observed (a "virtual" node). A pod whose owners are all in the cache
// costs nothing.
func (gc *GarbageCollector) checkPod(obj interface{}) {
	pod := obj.(*v1.Pod)
	for _, ref := range pod.OwnerReferences {
		if ref.Kind != controllerKind.Kind {
			continue
		}
		if rc, err := gc.rcLister.ReplicationControllers(pod.Namespace).Get(ref.Name); err != nil || rc.UID != ref.UID {
			gc.enqueue(pod)
			return
		}
	}
}

func (gc *GarbageCollector) enqueue(obj interface{}) {
	key, err := KeyFunc(obj)
	if err != nil {
		glog.Errorf("couldn't get key for %#v: %v", obj, err)
		return
	}
	gc.queue.Add(key)
}

func (gc *GarbageCollector) isAbsent(uid types.UID) bool {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	_, ok := gc.absentOwners.Get(uid)
	return ok
}

func (gc *GarbageCollector) setAbsent(uid types.UID) {
	gc.mu.Lock()
	defer gc.mu.Unlock()
	gc.absentOwners.Add(uid, struct{}{})
}

// Run waits for the caches, starts workers and blocks until ctx is done.
func (gc *GarbageCollector) Run(ctx context.Context, workers int) {
	defer gc.queue.ShutDown()
	glog.Infof("starting the garbage collector stand-in with %d workers", workers)
	defer glog.Infof("shutting down the garbage collector stand-in")
	if !cache.WaitForNamedCacheSync("garbage collector", ctx.Done(), gc.podsSynced, gc.rcsSynced) {
		return
	}
	// Pods orphaned while no manager ran are found now, as upstream finds
	// them when its graph is first built.
	pods, err := gc.podLister.List(everything)
	if err == nil {
		for _, pod := range pods {
			gc.checkPod(pod)
		}
	}
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, gc.worker, time.Second)
	}
	<-ctx.Done()
}

func (gc *GarbageCollector) worker(ctx context.Context) {
	for gc.processNextWorkItem(ctx) {
	}
}

func (gc *GarbageCollector) processNextWorkItem(ctx context.Context) bool {
	key, quit := gc.queue.Get()
	if quit {
		return false
	}
	defer gc.queue.Done(key)
	if err := gc.attemptToDeletePod(ctx, key); err != nil {
		glog.Errorf("garbage collector: %s: %v", key, err)
		gc.queue.AddRateLimited(key)
		return true
	}
	gc.queue.Forget(key)
	return true
}

// attemptToDeletePod reads the pod from the apiserver and sorts the owners
// it names into existing and dangling. A pod with an existing owner keeps
// it and loses the dangling references; a pod whose every owner is gone
// is deleted.
//
// Ours: upstream deletes with the pod's uid as a precondition, so that a
// pod recreated under the same name survives; our DELETE has no
// preconditions. Pods here are named by UUID, which no recreation reuses.
func (gc *GarbageCollector) attemptToDeletePod(ctx context.Context, key string) error {
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	nsCtx := api.WithNamespace(ctx, namespace)
	// Upstream reads the dependent afresh too: the cache may lag.
	latest, err := gc.kubeClient.GetPod(nsCtx, name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	pod := conversion.PodToV1(latest)
	if len(pod.OwnerReferences) == 0 {
		return nil
	}
	var solid, dangling []metav1.OwnerReference
	for _, ref := range pod.OwnerReferences {
		gone, err := gc.isDangling(ctx, namespace, ref)
		if err != nil {
			return err
		}
		if gone {
			dangling = append(dangling, ref)
		} else {
			solid = append(solid, ref)
		}
	}
	switch {
	case len(dangling) == 0:
		return nil
	case len(solid) > 0:
		// Ours: upstream removes the dangling references with a
		// strategic-merge patch; the 2014 API has no PATCH, so the pod
		// goes back with a PUT at the version just read.
		glog.V(2).Infof("garbage collector: removing dangling owners %s from pod %s", refNames(dangling), key)
		pod.OwnerReferences = solid
		_, err := gc.kubeClient.UpdatePod(nsCtx, conversion.PodFromV1(pod))
		return err
	}
	glog.V(2).Infof("garbage collector: deleting pod %s, whose owners %s are all gone", key, refNames(dangling))
	gcDeletes.Inc()
	if err := gc.kubeClient.DeletePod(nsCtx, name); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return nil
}

// isDangling reports whether ref names an owner that no longer exists:
// known absent, or not found, or found under another uid, when read from
// the apiserver (a quorum read, as upstream's: a cache could lag behind a
// controller just created).
func (gc *GarbageCollector) isDangling(ctx context.Context, namespace string, ref metav1.OwnerReference) (bool, error) {
	if ref.Kind != controllerKind.Kind {
		return false, nil
	}
	if gc.isAbsent(ref.UID) {
		return true, nil
	}
	owner, err := gc.kubeClient.GetReplicationController(api.WithNamespace(ctx, namespace), ref.Name)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return false, fmt.Errorf("looking up owner %s: %v", ref.Name, err)
	case types.UID(owner.UID) == ref.UID:
		return false, nil
	}
	gc.setAbsent(ref.UID)
	return true, nil
}

// refNames names owner references for the log: kind, name and uid.
func refNames(refs []metav1.OwnerReference) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = fmt.Sprintf("%s %s (%s)", r.Kind, r.Name, r.UID)
	}
	return strings.Join(names, ", ")
}
