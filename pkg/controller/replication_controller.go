//go:build !modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replication_controller.go as
// of v0.4 (commit 4452163, October 2014). Names, control flow and constants
// are upstream's; the code and the commentary are this project's. Log
// messages keep v0.4's wording and levels, capitals and %#v dumps included,
// so a 2014 log reads the same. The modern design is in
// replication_controller_modern.go (-tags modern).

import (
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/util"
)

// syncCauses are why the 2014 manager syncs a controller: an event on its
// watch, or its tick. The two never overlap: one goroutine serves both
// (watchControllers), and a tick's pass waits for all its syncs.
//
// Ours: v0.4 counted nothing; the syncs are counted where they are
// started, where the cause is known, and each pass of the tick is counted
// too (metrics.go), so that what a tick costs can be told from how often a
// loaded machine lets it come.
var syncCauses = []string{SyncWatch, SyncTick}

// ReplicationManager keeps the pods of every replication controller at the
// controller's desired count.
type ReplicationManager struct {
	kubeClient client.Interface
	podControl PodControlInterface
	syncTime   <-chan time.Time

	// syncHandler is syncReplicationController, kept in a field so tests
	// can put a recorder in its place.
	syncHandler func(controllerSpec api.ReplicationController) error
}

// NewReplicationManager returns a manager that talks to the apiserver
// through kubeClient.
func NewReplicationManager(kubeClient client.Interface) *ReplicationManager {
	rm := &ReplicationManager{
		kubeClient: kubeClient,
		podControl: RealPodControl{
			kubeClient: kubeClient,
		},
	}
	rm.syncHandler = rm.syncReplicationController
	return rm
}

// Run starts the manager and returns at once; it runs for the life of the
// process. The controller-manager calls it with a 10-second period.
//
// 2014: there is no stop channel and nothing to wait for before acting — the
// manager keeps no cache, so it is ready the moment it starts. Modern: Run
// waits for its informers' caches to fill (WaitForCacheSync) before any
// worker runs (history: wait-for-caches).
func (rm *ReplicationManager) Run(period time.Duration) {
	// time.Tick holds at most one pending tick: if a synchronize pass takes
	// longer than the period, the missed ticks collapse into one rather
	// than queueing up.
	rm.syncTime = time.Tick(period)
	// The resourceVersion outlives each watch, so a restarted watch resumes
	// after the last event it saw. v0.4 started from "", which its registry
	// read as "send the current state first", so every controller is synced
	// at start-up.
	//
	// Ours: the client takes the version as a number, and 0 stands for
	// v0.4's empty string; the apiserver answers both alike.
	resourceVersion := uint64(0)
	// util.Forever calls watchControllers again, after sleeping the period,
	// whenever it returns: when the watch stream ends or cannot be opened.
	go util.Forever(func() { rm.watchControllers(&resourceVersion) }, period)
}

// watchControllers serves one watch on all replication controllers, and the
// periodic tick, until the watch ends. resourceVersion is read to resume and
// updated with every event.
func (rm *ReplicationManager) watchControllers(resourceVersion *uint64) {
	ctx := api.NewContext()
	watching, err := rm.kubeClient.WatchReplicationControllers(
		ctx,
		labels.Everything(),
		labels.Everything(),
		*resourceVersion,
	)
	if err != nil {
		// Five seconds here, then the period in util.Forever: a manager that
		// cannot reach the apiserver retries every 15 s, and runs no
		// periodic sync meanwhile, because the tick is only read below.
		glog.Errorf("Unexpected failure to watch: %v", err)
		time.Sleep(5 * time.Second)
		return
	}

	// One goroutine serves both the tick and the watch, so they never run at
	// once: a long synchronize delays every watch event behind it, and a
	// burst of events delays the tick.
	//
	// Modern: watch and tick are gone. Shared informers (client-go
	// tools/cache) keep a local copy of every controller and pod and feed
	// keys into a rate-limited workqueue served by several workers
	// (history: pod-informer).
	for {
		select {
		case <-rm.syncTime:
			rm.synchronize()
		case event, open := <-watching.ResultChan():
			if !open {
				// The stream ended (the apiserver closed it, or its own etcd
				// watch ended). Return and let util.Forever start another
				// from the last resourceVersion, one period from now.
				return
			}
			glog.V(4).Infof("Got watch: %#v", event)
			rc, ok := event.Object.(*api.ReplicationController)
			if !ok {
				// An ERROR event lands here: its object is a Status, not a
				// controller. It is logged and skipped; the stream then
				// ends, and the next watch starts from the same
				// resourceVersion. If etcd's window of recent events has
				// moved past that version, every retry fails the same way
				// (etcd-io/etcd#925) and only the tick keeps the manager
				// working (history: watch-relist).
				glog.Errorf("unexpected object: %#v", event.Object)
				continue
			}
			// Remember where we are, so a reconnect resumes here.
			*resourceVersion = rc.ResourceVersion
			// A DELETED event carries the controller's last state and is
			// synced like any other: the deleted controller's pods are left
			// in place, and even topped up to its last replica count. After
			// that nothing owns them — no later pass lists that controller.
			glog.V(4).Infof("About to sync from watch: %v", rc.ID)
			syncs.WithLabelValues(SyncWatch).Inc()
			rm.syncHandler(*rc)
		}
	}
}

// syncReplicationController makes one controller's pod count match its
// desired replicas.
func (rm *ReplicationManager) syncReplicationController(controllerSpec api.ReplicationController) error {
	// Every sync lists the controller's pods from the apiserver, which in
	// turn reads every pod out of etcd, decodes it and only then applies the
	// selector: the cost grows with all pods in the cluster, not with this
	// controller's: 1 500 replicas saturated a 4-core master (history:
	// pod-informer). Modern: a pod lister reads the informer's cache and
	// the sync sends no request at all.
	s := labels.Set(controllerSpec.DesiredState.ReplicaSelector).AsSelector()
	ctx := api.WithNamespace(api.NewContext(), controllerSpec.Namespace)
	podList, err := rm.kubeClient.ListPods(ctx, s)
	if err != nil {
		syncErrors.Inc()
		return err
	}
	// Ownership is the selector and nothing else: any pod whose labels match
	// is counted, whoever made it, so two controllers with overlapping
	// selectors count each other's pods and fight. Modern: ControllerRef — a
	// pod belongs to the one controller named in its ownerReferences (2016;
	// history: controller-ref).
	filteredList := filterActivePods(podList.Items)
	diff := len(filteredList) - controllerSpec.DesiredState.Replicas
	if diff < 0 {
		diff *= -1
		// One goroutine and one POST per missing pod, all at once, with no
		// upper bound: scaling up by N pods starts N goroutines and N
		// concurrent requests. Nothing records that these creates are in
		// flight, so a sync that runs before the new pods show up in a
		// LIST creates them again. Modern: a cap per sync, slow-start
		// batches and expectations (history: burst-cap, slow-start,
		// expectations).
		wait := sync.WaitGroup{}
		wait.Add(diff)
		glog.V(2).Infof("Too few replicas, creating %d\n", diff)
		for i := 0; i < diff; i++ {
			go func() {
				defer wait.Done()
				rm.podControl.createReplica(ctx, controllerSpec)
			}()
		}
		wait.Wait()
	} else if diff > 0 {
		// Surplus pods are deleted in list order, whatever their state: a
		// Running pod goes as readily as one still Waiting for a host.
		// Modern: getPodsToDelete ranks candidates so that unscheduled,
		// pending and not-ready pods go first (2015), spreading survivors
		// across nodes and, since 2021, choosing among equally old pods at
		// random (history: ranked-deletion).
		glog.V(2).Infof("Too many replicas, deleting %d\n", diff)
		wait := sync.WaitGroup{}
		wait.Add(diff)
		for i := 0; i < diff; i++ {
			go func(ix int) {
				defer wait.Done()
				rm.podControl.deletePod(ctx, filteredList[ix].ID)
			}(i)
		}
		wait.Wait()
	}
	// Failed creates and deletes were only logged: the sync reports success
	// and the next tick, ten seconds on, sends the same requests again, for
	// ever. Modern: a failed sync goes back on the workqueue with a
	// per-controller exponential backoff (history: rate-limited-requeue).
	return nil
}

// synchronize syncs every replication controller, each in its own goroutine,
// and waits for all of them.
func (rm *ReplicationManager) synchronize() {
	// This pass is the only thing that notices a pod dying: pods are not
	// watched, so a deleted pod is replaced up to a period later. The pass
	// also costs one LIST of all controllers plus one LIST of pods per
	// controller every period even when nothing changes — 1 + #RC LISTs a
	// tick, six ticks a minute at 10 s. v0.4 carried a TODO to remove it
	// once the watch tracked resource versions; it went with the informer
	// rewrite (history: pod-informer).
	ticks.Inc()
	var controllerSpecs []api.ReplicationController
	ctx := api.NewContext()
	list, err := rm.kubeClient.ListReplicationControllers(ctx, labels.Everything())
	if err != nil {
		glog.Errorf("Synchronization error: %v (%#v)", err, err)
		return
	}
	controllerSpecs = list.Items
	wg := sync.WaitGroup{}
	wg.Add(len(controllerSpecs))
	for ix := range controllerSpecs {
		go func(ix int) {
			defer wg.Done()
			glog.V(4).Infof("periodic sync of %v", controllerSpecs[ix].ID)
			syncs.WithLabelValues(SyncTick).Inc()
			if err := rm.syncHandler(controllerSpecs[ix]); err != nil {
				glog.Errorf("Error synchronizing: %#v", err)
			}
		}(ix)
	}
	wg.Wait()
}
