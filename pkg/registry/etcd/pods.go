package etcd

// Follows kubernetes/kubernetes pkg/registry/etcd/etcd.go as of v0.4
// (October 2014), the pod and binding half.
//
// Ours: v0.4 also kept, for every host, the list of manifests bound to it
// (/registry/hosts/<host>/kubelet), rewritten on every bind, update and
// delete, for the kubelets to read. No kubelet reads it here (the hollow
// nodes watch pods), and rewriting one list per host on every bind made
// binding O(pods on the host), so it is not kept.

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// fillPodHost reports the desired host as the current one until someone
// writes a current host.
//
// 2014: "Currently nothing sets CurrentState.Host ... Here we pretend that
// reality perfectly matches our desires", and v0.4 copied the host
// unconditionally.
//
// Ours: the hollow nodes write currentState.host themselves, so only an
// empty one is filled.
func fillPodHost(pod *api.Pod) {
	if pod.CurrentState.Host == "" {
		pod.CurrentState.Host = pod.DesiredState.Host
	}
}

// ListPods returns the pods whose labels match selector.
func (r *Registry) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	return r.ListPodsPredicate(ctx, func(pod *api.Pod) bool {
		return selector.Matches(labels.Set(pod.Labels))
	})
}

// ListPodsPredicate returns the pods for which filter is true. Every pod is
// read and decoded whatever the filter: etcd cannot select by label.
func (r *Registry) ListPodsPredicate(ctx api.Context, filter func(*api.Pod) bool) (*api.PodList, error) {
	list := &api.PodList{}
	if err := r.ExtractList(podsPrefix, &list.Items, &list.ResourceVersion); err != nil {
		return nil, interpretListError(err)
	}
	kept := list.Items[:0]
	for i := range list.Items {
		if filter(&list.Items[i]) {
			fillPodHost(&list.Items[i])
			kept = append(kept, list.Items[i])
		}
	}
	list.Items = kept
	if list.Items == nil {
		list.Items = []api.Pod{}
	}
	return list, nil
}

// WatchPods watches the pods for which filter is true, from resourceVersion
// (0: the current pods first).
//
// Ours: the pods a watch sends get their current host filled as a LIST
// does (v0.4 sent them as stored), so that a client that lists and then
// watches sees one pod one way; and an object under /registry/pods that is
// not a pod is not sent (v0.4 let it through).
func (r *Registry) WatchPods(ctx api.Context, resourceVersion uint64, filter func(*api.Pod) bool) (watch.Interface, error) {
	return r.WatchList(podsPrefix, resourceVersion, func(obj api.Object) bool {
		pod, ok := obj.(*api.Pod)
		if !ok {
			return false
		}
		fillPodHost(pod)
		return filter(pod)
	})
}

// GetPod returns the pod id.
func (r *Registry) GetPod(ctx api.Context, id string) (*api.Pod, error) {
	key, err := makePodKey(id)
	if err != nil {
		return nil, err
	}
	var pod api.Pod
	if err := r.ExtractObj(key, &pod, false); err != nil {
		return nil, interpretGetError(err, "pod", id)
	}
	fillPodHost(&pod)
	return &pod, nil
}

// CreatePod stores a new pod as waiting to be scheduled: its desired host
// empty (the scheduler's signal) and its current status Waiting.
func (r *Registry) CreatePod(ctx api.Context, pod *api.Pod) error {
	key, err := makePodKey(pod.ID)
	if err != nil {
		return err
	}
	pod.CurrentState.Status = api.PodWaiting
	pod.CurrentState.Host = ""
	pod.DesiredState.Status = api.PodRunning
	pod.DesiredState.Host = ""
	return interpretCreateError(r.CreateObj(key, pod), "pod", pod.ID)
}

// UpdatePod replaces a pod, compare-and-swap on its resourceVersion. A pod
// already bound keeps its host whatever the update says.
//
// Ours: v0.4 allowed a bound pod's update to change only its labels and
// its containers' images (validation.ValidatePodUpdate). The hollow nodes
// update currentState and the modern build writes ownerReferences, so any
// change is accepted; the host still cannot move. uid and creationTimestamp are kept from the
// stored pod when the update leaves them out, so that a client that PUTs a
// hand-written pod does not change the pod's identity.
func (r *Registry) UpdatePod(ctx api.Context, pod *api.Pod) error {
	key, err := makePodKey(pod.ID)
	if err != nil {
		return err
	}
	var old api.Pod
	if err := r.ExtractObj(key, &old, false); err != nil {
		return interpretGetError(err, "pod", pod.ID)
	}
	if old.DesiredState.Host != "" {
		pod.DesiredState.Host = old.DesiredState.Host
	}
	keepIdentity(&pod.TypeMeta, &old.TypeMeta)
	return interpretUpdateError(r.SetObj(key, pod), "pod", pod.ID)
}

// keepIdentity fills uid and creationTimestamp of meta from old when meta
// has none.
func keepIdentity(meta, old *api.TypeMeta) {
	if meta.UID == "" {
		meta.UID = old.UID
	}
	if meta.CreationTimestamp.IsZero() {
		meta.CreationTimestamp = old.CreationTimestamp
	}
}

// DeletePod deletes the pod id.
func (r *Registry) DeletePod(ctx api.Context, id string) error {
	key, err := makePodKey(id)
	if err != nil {
		return err
	}
	return interpretDeleteError(r.Delete(key, true), "pod", id)
}

// ApplyBinding sets the desired host of binding.PodID to binding.Host. A
// pod already bound to another host is a conflict.
//
// Ours: binding a pod again to the host it is bound to succeeds without a
// write, where v0.4 refused any pod whose host was set; a scheduler that
// retries a binding whose answer it lost is not told it failed.
func (r *Registry) ApplyBinding(ctx api.Context, binding *api.Binding) error {
	key, err := makePodKey(binding.PodID)
	if err != nil {
		return err
	}
	err = r.AtomicUpdate(key, &api.Pod{}, func(obj api.Object) (api.Object, error) {
		pod := obj.(*api.Pod)
		// AtomicUpdate hands over a zero pod when the key is absent.
		if pod.ResourceVersion == 0 {
			return nil, apierrors.NewNotFound("pod", binding.PodID)
		}
		if pod.DesiredState.Host != "" && pod.DesiredState.Host != binding.Host {
			return nil, apierrors.NewConflict("binding", binding.PodID,
				fmt.Errorf("pod %s is already assigned to host %s", pod.ID, pod.DesiredState.Host))
		}
		pod.DesiredState.Host = binding.Host
		return pod, nil
	})
	return interpretUpdateError(err, "binding", binding.PodID)
}
