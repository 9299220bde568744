//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set.go as
// of v1.3x, applied to ReplicationControllers as pkg/controller/replication
// does (the ReplicaSet controller behind an adapter, #49429). Names and
// control flow are upstream's; code and commentary this project's. The
// v0.4 manager is replication_controller.go, the default build; each
// build's cmd/controller-manager/run*.go calls its own era's
// NewReplicationManager and Run.

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	klabels "github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	"github.com/prometheus/client_golang/prometheus"
	v1 "k8s.io/api/core/v1"
	k8serrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

const (
	// BurstReplicas caps the creates or deletes of one sync (history:
	// burst-cap).
	BurstReplicas = 500

	// SlowStartInitialBatchSize is the first batch of creates; each fully
	// successful batch doubles the next (history: slow-start).
	SlowStartInitialBatchSize = 1

	// statusUpdateRetries is how many times a failed status write is
	// retried, after a fresh GET.
	statusUpdateRetries = 1
)

// controllerKind is the kind ControllerRefs name.
//
// Ours: its apiVersion is v1beta1, the only version our apiserver serves
// (upstream: v1).
var controllerKind = schema.GroupVersionKind{Version: api.Version, Kind: "ReplicationController"}

// ReplicationManager keeps the pods each replication controller owns at
// the controller's desired count, working from shared informer caches.
type ReplicationManager struct {
	kubeClient client.Interface
	podControl PodControlInterface

	// burstReplicas caps the creates or deletes of one sync.
	burstReplicas int
	// syncHandler is syncReplicationController, in a field so tests can
	// replace it.
	syncHandler func(ctx context.Context, rcKey string) error

	// expectations remembers the creates and deletes in flight, so a sync
	// that runs before the informer has seen them does not repeat them.
	expectations *UIDTrackingControllerExpectations

	rcLister corelisters.ReplicationControllerLister
	// rcListerSynced reports whether the controller cache has been filled.
	rcListerSynced cache.InformerSynced
	podLister      corelisters.PodLister
	// podListerSynced reports whether the pod cache has been filled.
	podListerSynced cache.InformerSynced

	// queue holds the keys of controllers to sync. A key waiting is held
	// once however often it is added, and never handed to two workers at
	// once.
	queue workqueue.TypedRateLimitingInterface[string]
	// causes says why each key was queued (sync_causes_modern.go).
	causes *causeBook

	// Without switches changes of the history off; the zero value is
	// today's design.
	Without Without
}

// Without names the changes of the project's history (pkg/history) that
// the manager can run without. Each field is read at the one place its
// change lives, and switched off, that place behaves as before the change.
//
// Ours: upstream has no such switches; they let one change at a time be
// measured (rcbench history).
type Without struct {
	// StatusWrites: write no status (history: status-writes).
	StatusWrites bool
	// PodInformer: LIST pods from the apiserver on every sync (history:
	// pod-informer).
	PodInformer bool
	// Expectations: every sync manages replicas (history: expectations).
	Expectations bool
	// WaitForCaches: start workers at once (history: wait-for-caches).
	WaitForCaches bool
	// RankedDeletion: delete surplus pods in list order (history:
	// ranked-deletion).
	RankedDeletion bool
	// RateLimitedRequeue: requeue a failed key at once (history:
	// rate-limited-requeue).
	RateLimitedRequeue bool
	// ControllerRef: count every pod the selector matches (history:
	// controller-ref).
	ControllerRef bool
	// SlowStart: one batch of all the creates (history: slow-start).
	SlowStart bool
}

// NewReplicationManager returns a manager fed by the shared pod and
// controller informers, writing through kubeClient.
func NewReplicationManager(podInformer coreinformers.PodInformer, rcInformer coreinformers.ReplicationControllerInformer, kubeClient client.Interface, burstReplicas int) *ReplicationManager {
	rm := &ReplicationManager{
		kubeClient:    kubeClient,
		podControl:    RealPodControl{KubeClient: kubeClient},
		burstReplicas: burstReplicas,
		expectations:  NewUIDTrackingControllerExpectations(NewControllerExpectations()),
		causes:        newCauseBook(),
		// A failed sync comes back after 5 ms, 10 ms, 20 ms, ... up to
		// 1000 s per controller, and no more than 10 retries a second
		// across all of them (history: rate-limited-requeue). 2014: a
		// failure waits for the next 10 s tick and then repeats every
		// request, for ever.
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "replicationmanager"},
		),
	}

	rcInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    rm.addRC,
		UpdateFunc: rm.updateRC,
		DeleteFunc: rm.deleteRC,
	})
	rm.rcLister = rcInformer.Lister()
	rm.rcListerSynced = rcInformer.Informer().HasSynced

	podInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    rm.addPod,
		UpdateFunc: rm.updatePod,
		DeleteFunc: rm.deletePod,
	})
	rm.podLister = podInformer.Lister()
	rm.podListerSynced = podInformer.Informer().HasSynced

	rm.syncHandler = rm.syncReplicationController
	return rm
}

// Run waits for the caches, starts workers and blocks until ctx is done.
//
// 2014: Run returned at once and acted at once — it had no cache to wait
// for. Waiting for the caches is the fix for the first informer-based
// manager's overshoot after a restart (history: wait-for-caches).
func (rm *ReplicationManager) Run(ctx context.Context, workers int) {
	defer rm.queue.ShutDown()
	glog.Infof("starting replication manager with %d workers", workers)
	defer glog.Infof("shutting down replication manager")
	if !rm.Without.WaitForCaches && !cache.WaitForNamedCacheSync("replication controller", ctx.Done(), rm.podListerSynced, rm.rcListerSynced) {
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait.UntilWithContext(ctx, rm.worker, time.Second)
		}()
	}
	<-ctx.Done()
	rm.queue.ShutDown()
	wg.Wait()
}

// RegisterMetrics adds the modern-only metrics to r: status writes, and
// the creates and deletes the manager is still waiting to observe. The shared counters
// (replication_manager_*) are registered by RegisterMetrics in metrics.go.
func (rm *ReplicationManager) RegisterMetrics(r prometheus.Registerer) {
	for _, cause := range syncCauses {
		syncCreates.WithLabelValues(cause)
	}
	r.MustRegister(statusWrites, syncCreates)
	for _, kind := range []string{"create", "delete"} {
		r.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name:        "replication_manager_expectations_pending",
			Help:        "Creates and deletes issued but not yet seen in the informer cache (unexpired expectations).",
			ConstLabels: prometheus.Labels{"kind": kind},
		}, func() float64 {
			adds, dels := rm.expectations.pending()
			if kind == "create" {
				return float64(adds)
			}
			return float64(dels)
		}))
	}
}

// worker serves the queue until it shuts down.
func (rm *ReplicationManager) worker(ctx context.Context) {
	for rm.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem syncs one key. Success forgets the key's failures; a
// failure puts it back after its backoff.
func (rm *ReplicationManager) processNextWorkItem(ctx context.Context) bool {
	key, quit := rm.queue.Get()
	if quit {
		return false
	}
	defer rm.queue.Done(key)
	cause := rm.causes.take(key)
	syncs.WithLabelValues(cause).Inc()
	err := rm.syncHandler(withSyncCause(ctx, cause), key)
	if err == nil {
		rm.queue.Forget(key)
		return true
	}
	glog.Errorf("sync %q failed: %v", key, err)
	if rm.Without.RateLimitedRequeue {
		rm.add(key, SyncRetry)
		return true
	}
	rm.addRateLimited(key)
	return true
}

// syncReplicationController brings one controller's pods to its desired
// count and writes its status. It reads only caches; its requests are the
// creates, deletes, adoptions and status writes it decides on.
//
// 2014: every sync listed the controller's pods from the apiserver (and
// every 10 s, every controller's), so an idle cluster cost 6·(1+#RC) LISTs
// a minute (history: pod-informer). Here an idle cluster costs none.
func (rm *ReplicationManager) syncReplicationController(ctx context.Context, key string) error {
	startTime := time.Now()
	defer func() {
		glog.V(4).Infof("finished syncing replication controller %q (%v)", key, time.Since(startTime))
	}()

	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	rc, err := rm.rcLister.ReplicationControllers(namespace).Get(name)
	if k8serrors.IsNotFound(err) {
		glog.V(4).Infof("replication controller %s has been deleted", key)
		rm.expectations.DeleteExpectations(key)
		rm.causes.forget(key)
		return nil
	}
	if err != nil {
		return err
	}

	// Read the expectations before the pods: a pod arriving in between
	// then lowers expectations already read as unmet, and this sync
	// waits, rather than counting the pod as missing (history:
	// expectations).
	rcNeedsSync := rm.Without.Expectations || rm.expectations.SatisfiedExpectations(key)
	selector := labels.Set(rc.Spec.Selector).AsSelectorPreValidated()
	if selector.Empty() {
		// Ours: upstream never sees this, since v1 defaults a missing
		// selector from the template and validation refuses an empty one.
		// Our apiserver refuses one too; should one get through, it would
		// claim every pod of its namespace, so it is left alone.
		glog.Errorf("replication controller %s has an empty selector; not syncing it", key)
		return nil
	}

	// List all pods of the namespace, not only matching ones, so that a
	// pod we own whose labels moved away is found and released.
	allPods, err := rm.listPods(ctx, rc.Namespace)
	if err != nil {
		return err
	}
	filteredPods := FilterActivePods(allPods)
	filteredPods, err = rm.claimPods(ctx, rc, selector, filteredPods)
	if err != nil {
		syncErrors.Inc()
		return err
	}

	var manageReplicasErr error
	if rcNeedsSync && rc.DeletionTimestamp == nil {
		manageReplicasErr = rm.manageReplicas(ctx, filteredPods, rc)
	}

	if rm.Without.StatusWrites {
		if manageReplicasErr != nil {
			syncErrors.Inc()
		}
		return manageReplicasErr
	}
	// The cache's copy is shared with every other reader: compute on a
	// copy. Status is written even while expectations hold management
	// back, so status.replicas does not lag.
	rc = rc.DeepCopy()
	newStatus := calculateStatus(rc, filteredPods, manageReplicasErr)
	updatedRC, err := updateReplicationControllerStatus(ctx, rm.kubeClient, rc, newStatus)
	if err != nil {
		syncErrors.Inc()
		return err
	}
	// All ready but not all available: come back when minReadySeconds has
	// passed, in case no pod event does.
	if manageReplicasErr == nil && updatedRC.Spec.MinReadySeconds > 0 &&
		updatedRC.Status.ReadyReplicas == *updatedRC.Spec.Replicas &&
		updatedRC.Status.AvailableReplicas != *updatedRC.Spec.Replicas {
		rm.addAfter(key, SyncLater, time.Duration(updatedRC.Spec.MinReadySeconds)*time.Second)
	}
	if manageReplicasErr != nil {
		syncErrors.Inc()
	}
	return manageReplicasErr
}

// listPods returns every pod of namespace from the pod cache, or, without
// the pod informer, from the apiserver, as the 2014 manager read them.
func (rm *ReplicationManager) listPods(ctx context.Context, namespace string) ([]*v1.Pod, error) {
	if !rm.Without.PodInformer {
		return rm.podLister.Pods(namespace).List(labels.Everything())
	}
	list, err := rm.kubeClient.ListPods(api.WithNamespace(ctx, namespace), klabels.Everything())
	if err != nil {
		return nil, err
	}
	pods := make([]*v1.Pod, 0, len(list.Items))
	for i := range list.Items {
		pods = append(pods, conversion.PodToV1(&list.Items[i]))
	}
	return pods, nil
}

// claimPods returns the active pods the controller owns after adopting
// matching orphans and releasing owned pods that no longer match.
func (rm *ReplicationManager) claimPods(ctx context.Context, rc *v1.ReplicationController, selector labels.Selector, filteredPods []*v1.Pod) ([]*v1.Pod, error) {
	if rm.Without.ControllerRef {
		var matching []*v1.Pod
		for _, pod := range filteredPods {
			if selector.Matches(labels.Set(pod.Labels)) {
				matching = append(matching, pod)
			}
		}
		return matching, nil
	}
	// Before the first adoption, read the controller from the apiserver,
	// not the cache: if it was deleted meanwhile, it must adopt nothing.
	//
	// Ours: the GET goes through our client and is converted here.
	canAdoptFunc := RecheckDeletionTimestamp(func(ctx context.Context) (metav1.Object, error) {
		fresh, err := rm.kubeClient.GetReplicationController(api.WithNamespace(ctx, rc.Namespace), rc.Name)
		if err != nil {
			return nil, err
		}
		if fresh.UID != string(rc.UID) {
			return nil, fmt.Errorf("original replication controller %s/%s is gone: got uid %v, wanted %v", rc.Namespace, rc.Name, fresh.UID, rc.UID)
		}
		return conversion.ReplicationControllerToV1(fresh), nil
	})
	cm := NewPodControllerRefManager(rm.podControl, rc, selector, controllerKind, canAdoptFunc)
	return cm.ClaimPods(ctx, filteredPods)
}
