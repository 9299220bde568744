//go:build modern

package controller

// Follows kubernetes/kubernetes pkg/controller/controller_utils.go as of
// v1.3x (PodControlInterface, RealPodControl, FakePodControl), applied to
// ReplicationControllers as pkg/controller/replication does. 2014: the
// legacy pod control is in pod_control.go — it logged and forgot its
// errors, and stamped replicationController=<id> on every pod.

import (
	"context"
	"fmt"
	"sync"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/modern/conversion"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PodControlInterface creates, deletes and updates pods on behalf of a
// controller, and reports every failure to its caller.
type PodControlInterface interface {
	// CreatePods creates one pod from template in namespace, owned by
	// controllerRef.
	CreatePods(ctx context.Context, namespace string, template *v1.PodTemplateSpec, object runtime.Object, controllerRef *metav1.OwnerReference) error
	// DeletePod deletes the pod podID of namespace on behalf of object.
	DeletePod(ctx context.Context, namespace string, podID string, object runtime.Object) error
	// UpdatePod writes pod back, guarded by its resourceVersion.
	//
	// Ours: upstream adopts and releases pods with PatchPod, a strategic
	// merge patch of ownerReferences with the pod's UID as precondition.
	// The 2014 apiserver has no PATCH, so the whole pod goes back as a PUT
	// from the informer's copy, without a GET first; the resourceVersion
	// makes it a compare-and-swap, and a conflict fails the sync, which is
	// retried with backoff once the cache has the newer pod.
	UpdatePod(ctx context.Context, pod *v1.Pod) error
}

// RealPodControl talks to the apiserver through our 2014 client, converting
// v1 pods at the boundary.
//
// Ours: upstream also records an event (SuccessfulCreate, FailedCreate,
// ...) for each call; the 2014 API has no events.
type RealPodControl struct {
	KubeClient client.Interface
}

var _ PodControlInterface = RealPodControl{}

// CreatePods creates a pod from template carrying controllerRef.
func (r RealPodControl) CreatePods(ctx context.Context, namespace string, template *v1.PodTemplateSpec, object runtime.Object, controllerRef *metav1.OwnerReference) error {
	pod, err := getPodFromTemplate(template, object, controllerRef)
	if err != nil {
		return err
	}
	pod.Namespace = namespace
	podCreates.Inc()
	syncCreates.WithLabelValues(syncCauseOf(ctx)).Inc()
	nsCtx := api.WithNamespace(ctx, namespace)
	if _, err := r.KubeClient.CreatePod(nsCtx, conversion.PodFromV1(pod)); err != nil {
		podCreateErrors.Inc()
		return err
	}
	return nil
}

// getPodFromTemplate builds the pod to create: the template's labels,
// annotations and spec, and the ControllerRef that makes it ours. Unlike
// the 2014 manager, it adds no replicationController=<id> label: the
// ControllerRef names the owner.
//
// Ours: upstream also sets generateName to "<controller>-"; the 2014
// apiserver names a pod without an id with a UUID, as it did for the
// legacy manager's pods, so pods look alike in both builds.
func getPodFromTemplate(template *v1.PodTemplateSpec, parentObject runtime.Object, controllerRef *metav1.OwnerReference) (*v1.Pod, error) {
	if len(template.Labels) == 0 {
		return nil, fmt.Errorf("unable to create pods, no labels")
	}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Labels:      copyStringMap(template.Labels),
			Annotations: copyStringMap(template.Annotations),
		},
	}
	if controllerRef != nil {
		pod.OwnerReferences = append(pod.OwnerReferences, *controllerRef)
	}
	pod.Spec = *template.Spec.DeepCopy()
	return pod, nil
}

// DeletePod deletes one pod.
func (r RealPodControl) DeletePod(ctx context.Context, namespace string, podID string, object runtime.Object) error {
	podDeletes.Inc()
	if err := r.KubeClient.DeletePod(api.WithNamespace(ctx, namespace), podID); err != nil {
		podDeleteErrors.Inc()
		glog.V(2).Infof("failed to delete pod %s/%s: %v", namespace, podID, err)
		return err
	}
	return nil
}

// UpdatePod writes pod back with a compare-and-swap on its resourceVersion.
func (r RealPodControl) UpdatePod(ctx context.Context, pod *v1.Pod) error {
	_, err := r.KubeClient.UpdatePod(api.WithNamespace(ctx, pod.Namespace), conversion.PodFromV1(pod))
	return err
}

// FakePodControl records calls instead of making them; it is safe for the
// concurrent calls of a slow-start batch.
type FakePodControl struct {
	sync.Mutex
	Templates      []v1.PodTemplateSpec
	ControllerRefs []metav1.OwnerReference
	DeletePodName  []string
	Updates        []*v1.Pod
	// Err is returned by every call.
	Err error
	// CreateLimit, when positive, fails every create past that many calls.
	CreateLimit     int
	CreateCallCount int
}

var _ PodControlInterface = &FakePodControl{}

// CreatePods records the template and reference.
func (f *FakePodControl) CreatePods(ctx context.Context, namespace string, template *v1.PodTemplateSpec, object runtime.Object, controllerRef *metav1.OwnerReference) error {
	f.Lock()
	defer f.Unlock()
	f.CreateCallCount++
	if f.CreateLimit != 0 && f.CreateCallCount > f.CreateLimit {
		return fmt.Errorf("not creating pod, limit %d already reached (create call %d)", f.CreateLimit, f.CreateCallCount)
	}
	f.Templates = append(f.Templates, *template)
	if controllerRef != nil {
		f.ControllerRefs = append(f.ControllerRefs, *controllerRef)
	}
	return f.Err
}

// DeletePod records the pod name.
func (f *FakePodControl) DeletePod(ctx context.Context, namespace string, podID string, object runtime.Object) error {
	f.Lock()
	defer f.Unlock()
	f.DeletePodName = append(f.DeletePodName, podID)
	return f.Err
}

// UpdatePod records the pod.
func (f *FakePodControl) UpdatePod(ctx context.Context, pod *v1.Pod) error {
	f.Lock()
	defer f.Unlock()
	f.Updates = append(f.Updates, pod.DeepCopy())
	return f.Err
}

// Clear forgets the recorded calls.
func (f *FakePodControl) Clear() {
	f.Lock()
	defer f.Unlock()
	f.Templates, f.ControllerRefs, f.DeletePodName, f.Updates = nil, nil, nil, nil
	f.CreateLimit, f.CreateCallCount = 0, 0
}

func copyStringMap(in map[string]string) map[string]string {
	if in == nil {
		return nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}
