//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/replicaset/replica_set.go as
// of v1.3x (the informer event handlers), applied to ReplicationControllers
// as pkg/controller/replication does. Handlers only turn events into queue
// keys and expectation updates; all work happens in the workers. 2014:
// replication_controller.go watched controllers only, and synced each one
// inline in the watch loop.

import (
	"reflect"
	"time"

	"github.com/golang/glog"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
)

// getPodReplicationControllers returns the controllers whose selector
// matches pod. More than one is a user error (overlapping selectors); each
// is told, and ControllerRef decides who keeps the pod.
func (rm *ReplicationManager) getPodReplicationControllers(pod *v1.Pod) []*v1.ReplicationController {
	rcs, err := rm.rcLister.ReplicationControllers(pod.Namespace).List(labels.Everything())
	if err != nil {
		return nil
	}
	var out []*v1.ReplicationController
	for _, rc := range rcs {
		selector := labels.Set(rc.Spec.Selector).AsSelectorPreValidated()
		if selector.Empty() || !selector.Matches(labels.Set(pod.Labels)) {
			continue
		}
		out = append(out, rc)
	}
	if len(out) > 1 {
		glog.V(2).Infof("user error: more than one replication controller selects pod %s/%s with labels %v", pod.Namespace, pod.Name, pod.Labels)
	}
	return out
}

// resolveControllerRef returns the controller a ControllerRef names, if it
// is one of ours and still the same object (same UID).
func (rm *ReplicationManager) resolveControllerRef(namespace string, controllerRef *metav1.OwnerReference) *v1.ReplicationController {
	if controllerRef.Kind != controllerKind.Kind {
		return nil
	}
	rc, err := rm.rcLister.ReplicationControllers(namespace).Get(controllerRef.Name)
	if err != nil || rc.UID != controllerRef.UID {
		return nil
	}
	return rc
}

// enqueueRC queues rc for a sync; cause says why (sync_causes_modern.go).
//
// Ours: upstream's enqueueRS takes no cause.
func (rm *ReplicationManager) enqueueRC(rc *v1.ReplicationController, cause string) {
	key, err := KeyFunc(rc)
	if err != nil {
		glog.Errorf("couldn't get key for %#v: %v", rc, err)
		return
	}
	rm.add(key, cause)
}

func (rm *ReplicationManager) enqueueRCAfter(rc *v1.ReplicationController, cause string, after time.Duration) {
	key, err := KeyFunc(rc)
	if err != nil {
		glog.Errorf("couldn't get key for %#v: %v", rc, err)
		return
	}
	rm.addAfter(key, cause, after)
}

func (rm *ReplicationManager) addRC(obj interface{}) {
	rc := obj.(*v1.ReplicationController)
	glog.V(4).Infof("adding replication controller %s/%s", rc.Namespace, rc.Name)
	rm.enqueueRC(rc, SyncController)
}

// updateRC enqueues the controller on every change, status writes
// included: the extra syncs cost no requests (listing is from the cache)
// and do nothing while expectations are unmet.
func (rm *ReplicationManager) updateRC(old, cur interface{}) {
	oldRC := old.(*v1.ReplicationController)
	curRC := cur.(*v1.ReplicationController)
	// A new UID under the same name means the old controller was deleted
	// and the delete event missed; forget its expectations.
	if curRC.UID != oldRC.UID {
		key, err := KeyFunc(oldRC)
		if err != nil {
			glog.Errorf("couldn't get key for %#v: %v", oldRC, err)
			return
		}
		rm.deleteRC(cache.DeletedFinalStateUnknown{Key: key, Obj: oldRC})
	}
	if *oldRC.Spec.Replicas != *curRC.Spec.Replicas {
		glog.V(4).Infof("replication controller %s/%s resized from %d to %d", curRC.Namespace, curRC.Name, *oldRC.Spec.Replicas, *curRC.Spec.Replicas)
	}
	// The same resourceVersion is the informer handing the controller
	// over again, unchanged: a resync, or a relist that found nothing new.
	cause := SyncController
	if curRC.ResourceVersion == oldRC.ResourceVersion {
		cause = SyncResync
	}
	rm.enqueueRC(curRC, cause)
}

func (rm *ReplicationManager) deleteRC(obj interface{}) {
	rc, ok := obj.(*v1.ReplicationController)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			glog.Errorf("couldn't get object from tombstone %#v", obj)
			return
		}
		rc, ok = tombstone.Obj.(*v1.ReplicationController)
		if !ok {
			glog.Errorf("tombstone contained an object that is not a replication controller %#v", obj)
			return
		}
	}
	key, err := KeyFunc(rc)
	if err != nil {
		glog.Errorf("couldn't get key for %#v: %v", rc, err)
		return
	}
	glog.V(4).Infof("deleting replication controller %s", key)
	rm.expectations.DeleteExpectations(key)
	rm.add(key, SyncController)
}

// addPod tells the pod's controller that one of its creates arrived, or,
// for an orphan, wakes every controller that might adopt it.
//
// 2014: pods were not watched at all; a new or dead pod was noticed at the
// next 10 s tick.
func (rm *ReplicationManager) addPod(obj interface{}) {
	pod := obj.(*v1.Pod)
	if pod.DeletionTimestamp != nil {
		// A restarted manager can meet a pod already on its way out: that
		// is a deletion, not a creation.
		rm.deletePod(pod)
		return
	}
	if rm.Without.ControllerRef {
		rm.tellSelectorPeers(pod, false)
	}
	if controllerRef := metav1.GetControllerOf(pod); controllerRef != nil {
		rc := rm.resolveControllerRef(pod.Namespace, controllerRef)
		if rc == nil {
			return
		}
		rcKey, err := KeyFunc(rc)
		if err != nil {
			return
		}
		glog.V(4).Infof("pod %s/%s created for %s", pod.Namespace, pod.Name, rcKey)
		rm.expectations.CreationObserved(rcKey)
		rm.add(rcKey, SyncPod)
		return
	}
	// An orphan: every matching controller may want it. Orphans never
	// count against expectations, which only track our own creates.
	for _, rc := range rm.getPodReplicationControllers(pod) {
		rm.enqueueRC(rc, SyncPod)
	}
}

// updatePod wakes the controllers that an update concerns: the old and
// new owners when the ControllerRef changed, the owner otherwise, and
// every matching controller for an orphan whose labels changed.
func (rm *ReplicationManager) updatePod(old, cur interface{}) {
	curPod := cur.(*v1.Pod)
	oldPod := old.(*v1.Pod)
	if curPod.ResourceVersion == oldPod.ResourceVersion {
		// A periodic resync replays every cached pod with the same
		// resourceVersion; nothing changed.
		return
	}
	labelChanged := !reflect.DeepEqual(curPod.Labels, oldPod.Labels)
	if curPod.DeletionTimestamp != nil {
		rm.deletePod(curPod)
		if labelChanged {
			rm.deletePod(oldPod)
		}
		return
	}
	curControllerRef := metav1.GetControllerOf(curPod)
	oldControllerRef := metav1.GetControllerOf(oldPod)
	controllerRefChanged := !reflect.DeepEqual(curControllerRef, oldControllerRef)
	if controllerRefChanged && oldControllerRef != nil {
		if rc := rm.resolveControllerRef(oldPod.Namespace, oldControllerRef); rc != nil {
			rm.enqueueRC(rc, SyncPod)
		}
	}
	if curControllerRef != nil {
		rc := rm.resolveControllerRef(curPod.Namespace, curControllerRef)
		if rc == nil {
			return
		}
		rm.enqueueRC(rc, SyncPod)
		// A pod that just became ready becomes available minReadySeconds
		// later; sync again then. The extra second absorbs clock skew
		// (kubernetes/kubernetes#39785).
		if !IsPodReady(oldPod) && IsPodReady(curPod) && rc.Spec.MinReadySeconds > 0 {
			rm.enqueueRCAfter(rc, SyncLater, (time.Duration(rc.Spec.MinReadySeconds)*time.Second)+time.Second)
		}
		return
	}
	if labelChanged || controllerRefChanged {
		for _, rc := range rm.getPodReplicationControllers(curPod) {
			rm.enqueueRC(rc, SyncPod)
		}
	}
}

// deletePod tells the pod's controller that a delete it expected arrived.
// obj may be a tombstone: the informer missed the delete and learned of it
// from a relist. Orphans' deletions concern nobody.
func (rm *ReplicationManager) deletePod(obj interface{}) {
	pod, ok := obj.(*v1.Pod)
	if !ok {
		tombstone, ok := obj.(cache.DeletedFinalStateUnknown)
		if !ok {
			glog.Errorf("couldn't get object from tombstone %#v", obj)
			return
		}
		pod, ok = tombstone.Obj.(*v1.Pod)
		if !ok {
			glog.Errorf("tombstone contained an object that is not a pod %#v", obj)
			return
		}
	}
	if rm.Without.ControllerRef {
		rm.tellSelectorPeers(pod, true)
	}
	controllerRef := metav1.GetControllerOf(pod)
	if controllerRef == nil {
		return
	}
	rc := rm.resolveControllerRef(pod.Namespace, controllerRef)
	if rc == nil {
		return
	}
	rcKey, err := KeyFunc(rc)
	if err != nil {
		return
	}
	glog.V(4).Infof("pod %s/%s of %s deleted", pod.Namespace, pod.Name, rcKey)
	rm.expectations.DeletionObserved(rcKey, PodKey(pod))
	rm.add(rcKey, SyncPod)
}

// tellSelectorPeers wakes every controller whose selector matches pod and,
// for a deletion, settles the ones that expected it. Without ControllerRef
// (history: controller-ref) each of them counts the pod as its own, as
// before 2016, so each must hear of it.
func (rm *ReplicationManager) tellSelectorPeers(pod *v1.Pod, deleted bool) {
	for _, rc := range rm.getPodReplicationControllers(pod) {
		rcKey, err := KeyFunc(rc)
		if err != nil {
			continue
		}
		if deleted {
			rm.expectations.DeletionObserved(rcKey, PodKey(pod))
		}
		rm.add(rcKey, SyncPod)
	}
}
