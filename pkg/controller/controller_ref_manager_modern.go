//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/controller_ref_manager.go as
// of v1.3x (BaseControllerRefManager, PodControllerRefManager), applied to
// ReplicationControllers as pkg/controller/replication does.
//
// A pod belongs to the one controller its ControllerRef (an ownerReference
// with controller=true) names. Controllers set it on the pods they create,
// adopt matching orphans and release pods whose labels no longer match
// (history: controller-ref). 2014: replication_controller.go owns pods by
// selector alone, so two controllers with overlapping selectors both count
// the same pods and fight.

import (
	"context"
	"fmt"
	"sync"

	"github.com/golang/glog"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
)

// BaseControllerRefManager holds what claiming needs of the controller:
// itself, its selector, and a check, run once, that it may adopt.
type BaseControllerRefManager struct {
	Controller metav1.Object
	Selector   labels.Selector

	canAdoptErr  error
	canAdoptOnce sync.Once
	CanAdoptFunc func(ctx context.Context) error
}

// CanAdopt runs CanAdoptFunc the first time it is called and returns its
// answer every time.
func (m *BaseControllerRefManager) CanAdopt(ctx context.Context) error {
	m.canAdoptOnce.Do(func() {
		if m.CanAdoptFunc != nil {
			m.canAdoptErr = m.CanAdoptFunc(ctx)
		}
	})
	return m.canAdoptErr
}

// ClaimObject decides whether obj is the controller's: it keeps what it
// owns and matches, releases what it owns and no longer matches, adopts a
// matching orphan, and leaves other controllers' objects alone.
func (m *BaseControllerRefManager) ClaimObject(ctx context.Context, obj metav1.Object, match func(metav1.Object) bool, adopt, release func(context.Context, metav1.Object) error) (bool, error) {
	controllerRef := metav1.GetControllerOfNoCopy(obj)
	if controllerRef != nil {
		if controllerRef.UID != m.Controller.GetUID() {
			return false, nil
		}
		if match(obj) {
			return true, nil
		}
		// Ours, but its labels moved away. A controller being deleted
		// lets the garbage collector have its pods instead.
		if m.Controller.GetDeletionTimestamp() != nil {
			return false, nil
		}
		if err := release(ctx, obj); err != nil {
			if apierrors.IsNotFound(err) {
				return false, nil
			}
			return false, err
		}
		return false, nil
	}
	// An orphan: adopt it if it matches, unless either side is going away
	// or they live in different namespaces.
	if m.Controller.GetDeletionTimestamp() != nil || !match(obj) {
		return false, nil
	}
	if obj.GetDeletionTimestamp() != nil {
		return false, nil
	}
	if len(m.Controller.GetNamespace()) > 0 && m.Controller.GetNamespace() != obj.GetNamespace() {
		return false, nil
	}
	if err := adopt(ctx, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// PodControllerRefManager claims pods for one controller.
type PodControllerRefManager struct {
	BaseControllerRefManager
	controllerKind schema.GroupVersionKind
	podControl     PodControlInterface
}

// NewPodControllerRefManager returns a manager claiming pods for controller.
// canAdopt runs before the first adoption; it should re-read the controller
// from the apiserver, so that a controller deleted since the cache saw it
// adopts nothing (kubernetes/kubernetes#42639).
func NewPodControllerRefManager(podControl PodControlInterface, controller metav1.Object, selector labels.Selector,
	controllerKind schema.GroupVersionKind, canAdopt func(ctx context.Context) error) *PodControllerRefManager {
	return &PodControllerRefManager{
		BaseControllerRefManager: BaseControllerRefManager{Controller: controller, Selector: selector, CanAdoptFunc: canAdopt},
		controllerKind:           controllerKind,
		podControl:               podControl,
	}
}

// ClaimPods returns the pods that are the controller's after adopting and
// releasing. Errors from adoptions and releases are gathered and returned
// together; the sync then fails and is retried with backoff.
func (m *PodControllerRefManager) ClaimPods(ctx context.Context, pods []*v1.Pod) ([]*v1.Pod, error) {
	var claimed []*v1.Pod
	var errlist []error
	match := func(obj metav1.Object) bool {
		return m.Selector.Matches(labels.Set(obj.GetLabels()))
	}
	adopt := func(ctx context.Context, obj metav1.Object) error {
		return m.AdoptPod(ctx, obj.(*v1.Pod))
	}
	release := func(ctx context.Context, obj metav1.Object) error {
		return m.ReleasePod(ctx, obj.(*v1.Pod))
	}
	for _, pod := range pods {
		ok, err := m.ClaimObject(ctx, pod, match, adopt, release)
		if err != nil {
			errlist = append(errlist, err)
			continue
		}
		if ok {
			claimed = append(claimed, pod)
		}
	}
	return claimed, utilerrors.NewAggregate(errlist)
}

// AdoptPod makes the controller the pod's controller. Two controllers
// racing for one orphan cannot both win: the write is a compare-and-swap
// on the pod's resourceVersion (upstream: apiserver validation refuses a
// second controller=true reference).
func (m *PodControllerRefManager) AdoptPod(ctx context.Context, pod *v1.Pod) error {
	if err := m.CanAdopt(ctx); err != nil {
		return fmt.Errorf("can't adopt pod %s/%s (%s): %v", pod.Namespace, pod.Name, pod.UID, err)
	}
	glog.V(2).Infof("adopting pod %s/%s into %s %s", pod.Namespace, pod.Name, m.controllerKind.Kind, m.Controller.GetName())
	adopted := pod.DeepCopy()
	adopted.OwnerReferences = append(withoutOwner(adopted.OwnerReferences, m.Controller.GetUID()),
		*metav1.NewControllerRef(m.Controller, m.controllerKind))
	return m.podControl.UpdatePod(ctx, adopted)
}

// ReleasePod removes the controller's reference from the pod. A pod that is
// gone or no longer carries the reference is already released.
func (m *PodControllerRefManager) ReleasePod(ctx context.Context, pod *v1.Pod) error {
	glog.V(2).Infof("releasing pod %s/%s from %s %s", pod.Namespace, pod.Name, m.controllerKind.Kind, m.Controller.GetName())
	released := pod.DeepCopy()
	released.OwnerReferences = withoutOwner(released.OwnerReferences, m.Controller.GetUID())
	err := m.podControl.UpdatePod(ctx, released)
	if apierrors.IsNotFound(err) || apierrors.IsInvalid(err) {
		return nil
	}
	return err
}

func withoutOwner(refs []metav1.OwnerReference, uid types.UID) []metav1.OwnerReference {
	var out []metav1.OwnerReference
	for _, r := range refs {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	return out
}

// RecheckDeletionTimestamp returns a canAdopt check that reads the
// controller fresh and refuses if it is being deleted.
func RecheckDeletionTimestamp(getObject func(context.Context) (metav1.Object, error)) func(context.Context) error {
	return func(ctx context.Context) error {
		obj, err := getObject(ctx)
		if err != nil {
			return fmt.Errorf("can't recheck DeletionTimestamp: %v", err)
		}
		if obj.GetDeletionTimestamp() != nil {
			return fmt.Errorf("%v/%v has just been deleted at %v", obj.GetNamespace(), obj.GetName(), obj.GetDeletionTimestamp())
		}
		return nil
	}
}
