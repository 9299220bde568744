//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/controller_utils.go as of
// v1.3x (ControllerExpectations, UIDTrackingControllerExpectations),
// applied to ReplicationControllers as pkg/controller/replication does.
//
// Expectations are the manager's memory of what it asked for: a sync that
// creates 500 pods returns before the informer has seen them, and without
// a record the next sync would create them again. The time-to-live covers
// a watch event that never arrives (history: expectations).

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang/glog"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
)

// ExpectationsTimeout is how long unmet expectations hold a controller
// back. Upstream reasons that a controller creates and observes about ten
// pods a second, so a burst of 500 takes about a minute; five minutes
// leaves room for a slow watch. After that the controller acts on what it
// sees.
const ExpectationsTimeout = 5 * time.Minute

// ControlleeExpectations counts the creates and deletes one controller is
// still waiting to observe. The counters may go below zero.
type ControlleeExpectations struct {
	add       int64
	del       int64
	key       string
	timestamp time.Time
}

// Add raises (or, with negative values, lowers) the counts.
func (e *ControlleeExpectations) Add(add, del int64) {
	atomic.AddInt64(&e.add, add)
	atomic.AddInt64(&e.del, del)
}

// Fulfilled reports whether every expected create and delete was seen.
func (e *ControlleeExpectations) Fulfilled() bool {
	return atomic.LoadInt64(&e.add) <= 0 && atomic.LoadInt64(&e.del) <= 0
}

// GetExpectations returns the outstanding creates and deletes.
func (e *ControlleeExpectations) GetExpectations() (int64, int64) {
	return atomic.LoadInt64(&e.add), atomic.LoadInt64(&e.del)
}

func (e *ControlleeExpectations) isExpired(c clock.PassiveClock) bool {
	return c.Since(e.timestamp) > ExpectationsTimeout
}

// expKeyFunc keys a record by its controller's key.
func expKeyFunc(obj interface{}) (string, error) {
	if e, ok := obj.(*ControlleeExpectations); ok {
		return e.key, nil
	}
	return "", fmt.Errorf("could not find key for obj %#v", obj)
}

// ControllerExpectations is a store of expectations keyed by controller
// ("namespace/name", not UID: a controller deleted and created again under
// the same name must clear them, which deleteRC and updateRC do).
type ControllerExpectations struct {
	cache.Store
	clock clock.PassiveClock
}

// NewControllerExpectations returns an empty store on the real clock.
func NewControllerExpectations() *ControllerExpectations {
	return &ControllerExpectations{Store: cache.NewStore(expKeyFunc), clock: clock.RealClock{}}
}

// GetExpectations returns the record of controllerKey.
func (r *ControllerExpectations) GetExpectations(controllerKey string) (*ControlleeExpectations, bool, error) {
	exp, exists, err := r.GetByKey(controllerKey)
	if err != nil || !exists {
		return nil, exists, err
	}
	return exp.(*ControlleeExpectations), true, nil
}

// DeleteExpectations forgets controllerKey's record.
func (r *ControllerExpectations) DeleteExpectations(controllerKey string) {
	if exp, exists, err := r.GetByKey(controllerKey); err == nil && exists {
		if err := r.Delete(exp); err != nil {
			glog.V(2).Infof("error deleting expectations for %s: %v", controllerKey, err)
		}
	}
}

// SatisfiedExpectations reports whether controllerKey may act: true when it
// has no record, when the record is fulfilled or expired, or when the store
// fails (better an extra sync than a stuck controller). Only a live,
// unfulfilled record holds it back — and only from creating and deleting;
// claiming and status writes go on.
func (r *ControllerExpectations) SatisfiedExpectations(controllerKey string) bool {
	exp, exists, err := r.GetExpectations(controllerKey)
	switch {
	case err != nil:
		glog.V(2).Infof("error reading expectations of %s, syncing anyway: %v", controllerKey, err)
	case !exists:
		glog.V(4).Infof("%s has no expectations (new, or never set)", controllerKey)
	case exp.Fulfilled():
		glog.V(4).Infof("expectations of %s are met", controllerKey)
	case exp.isExpired(r.clock):
		add, del := exp.GetExpectations()
		glog.V(2).Infof("expectations of %s expired with %d adds and %d deletes unseen", controllerKey, add, del)
	default:
		add, del := exp.GetExpectations()
		glog.V(4).Infof("%s waits for %d adds and %d deletes", controllerKey, add, del)
		return false
	}
	return true
}

// SetExpectations replaces controllerKey's record and restarts its clock.
func (r *ControllerExpectations) SetExpectations(controllerKey string, add, del int) error {
	exp := &ControlleeExpectations{add: int64(add), del: int64(del), key: controllerKey, timestamp: r.clock.Now()}
	return r.Add(exp)
}

// ExpectCreations records adds creates in flight.
func (r *ControllerExpectations) ExpectCreations(controllerKey string, adds int) error {
	return r.SetExpectations(controllerKey, adds, 0)
}

// ExpectDeletions records dels deletes in flight.
func (r *ControllerExpectations) ExpectDeletions(controllerKey string, dels int) error {
	return r.SetExpectations(controllerKey, 0, dels)
}

// LowerExpectations lowers controllerKey's counts, if it has a record.
func (r *ControllerExpectations) LowerExpectations(controllerKey string, add, del int) {
	if exp, exists, err := r.GetExpectations(controllerKey); err == nil && exists {
		exp.Add(int64(-add), int64(-del))
	}
}

// CreationObserved counts one create as seen.
func (r *ControllerExpectations) CreationObserved(controllerKey string) {
	r.LowerExpectations(controllerKey, 1, 0)
}

// DeletionObserved counts one delete as seen.
func (r *ControllerExpectations) DeletionObserved(controllerKey string) {
	r.LowerExpectations(controllerKey, 0, 1)
}

// pending returns the creates and deletes still awaited by unexpired
// records, for the expectations metric.
func (r *ControllerExpectations) pending() (adds, dels int64) {
	for _, obj := range r.List() {
		exp := obj.(*ControlleeExpectations)
		if exp.isExpired(r.clock) {
			continue
		}
		add, del := exp.GetExpectations()
		adds += max(add, 0)
		dels += max(del, 0)
	}
	return adds, dels
}

// UIDSet is the set of pod keys one controller expects to see deleted.
type UIDSet struct {
	sets.Set[string]
	key string
}

func uidSetKeyFunc(obj interface{}) (string, error) {
	if u, ok := obj.(*UIDSet); ok {
		return u.key, nil
	}
	return "", fmt.Errorf("could not find key for obj %#v", obj)
}

// UIDTrackingControllerExpectations tracks deletes by pod, not by count, so
// that a pod seen twice on its way out counts once. Graceful deletion made
// that happen (a pod is first updated with a deletion timestamp, then
// deleted), and counting both ran controllers short; this type fixed it
// in March 2016 (history: expectations). The "UIDs" are pod
// keys ("namespace/name"). Creates stay a bare count.
type UIDTrackingControllerExpectations struct {
	*ControllerExpectations
	// uidStoreLock serialises the read-modify-write of a controller's set.
	uidStoreLock sync.Mutex
	uidStore     cache.Store
}

// NewUIDTrackingControllerExpectations wraps ce.
func NewUIDTrackingControllerExpectations(ce *ControllerExpectations) *UIDTrackingControllerExpectations {
	return &UIDTrackingControllerExpectations{ControllerExpectations: ce, uidStore: cache.NewStore(uidSetKeyFunc)}
}

// GetUIDs returns the pod keys controllerKey expects to see deleted.
func (u *UIDTrackingControllerExpectations) GetUIDs(controllerKey string) sets.Set[string] {
	if uid, exists, err := u.uidStore.GetByKey(controllerKey); err == nil && exists {
		return uid.(*UIDSet).Set
	}
	return nil
}

// ExpectDeletions records the pods about to be deleted.
func (u *UIDTrackingControllerExpectations) ExpectDeletions(controllerKey string, deletedKeys []string) error {
	expected := sets.New(deletedKeys...)
	u.uidStoreLock.Lock()
	defer u.uidStoreLock.Unlock()
	if existing := u.GetUIDs(controllerKey); existing.Len() != 0 {
		glog.Errorf("clobbering the delete expectations of %s: %v", controllerKey, sets.List(existing))
	}
	if err := u.uidStore.Add(&UIDSet{Set: expected, key: controllerKey}); err != nil {
		return err
	}
	return u.ControllerExpectations.ExpectDeletions(controllerKey, expected.Len())
}

// DeletionObserved counts the delete of deleteKey once, if it was expected.
func (u *UIDTrackingControllerExpectations) DeletionObserved(controllerKey, deleteKey string) {
	u.uidStoreLock.Lock()
	defer u.uidStoreLock.Unlock()
	uids := u.GetUIDs(controllerKey)
	if uids != nil && uids.Has(deleteKey) {
		u.ControllerExpectations.DeletionObserved(controllerKey)
		uids.Delete(deleteKey)
	}
}

// DeleteExpectations forgets both the counts and the pod keys.
func (u *UIDTrackingControllerExpectations) DeleteExpectations(controllerKey string) {
	u.uidStoreLock.Lock()
	defer u.uidStoreLock.Unlock()
	u.ControllerExpectations.DeleteExpectations(controllerKey)
	if uidExp, exists, err := u.uidStore.GetByKey(controllerKey); err == nil && exists {
		if err := u.uidStore.Delete(uidExp); err != nil {
			glog.V(2).Infof("error deleting the delete expectations of %s: %v", controllerKey, err)
		}
	}
}

// PodKey returns the key deletes are tracked by.
func PodKey(pod *v1.Pod) string {
	return pod.Namespace + "/" + pod.Name
}
