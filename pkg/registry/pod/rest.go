package pod

// Follows kubernetes/kubernetes pkg/registry/pod/rest.go as of v0.4
// (October 2014). Every GET and LIST computes each pod's status on the way
// out, as v0.4 did (status.go); a watch sends pods as stored, as v0.4's did.

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/registry"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// REST serves pods.
type REST struct {
	registry Registry
	minions  MinionLister
}

// NewREST returns the REST storage of pods on registry. Reads list the
// minions through minions, as v0.4's did.
//
// Ours: with minions nil, pods are read as stored: no minion LIST, no
// Terminated for a pod whose minion is gone. Reads then cost less than in
// 2014; the apiserver's -read_pod_status=false chooses it.
func NewREST(registry Registry, minions MinionLister) *REST {
	return &REST{registry: registry, minions: minions}
}

var (
	_ apiserver.RESTStorage     = &REST{}
	_ apiserver.ResourceWatcher = &REST{}
)

// New returns an empty pod to decode a request into.
func (*REST) New() api.Object {
	return &api.Pod{}
}

// Create stores a new pod. A pod without an id gets a time-based UUID,
// which is also its manifest's uuid; its manifest id is its id.
func (rs *REST) Create(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return nil, registry.WrongKind("Pod", obj)
	}
	if err := registry.CheckNamespace(ctx, "pod", &pod.TypeMeta); err != nil {
		return nil, err
	}
	pod.DesiredState.Manifest.UUID = registry.NewTimeBasedID()
	if len(pod.ID) == 0 {
		pod.ID = pod.DesiredState.Manifest.UUID
	}
	pod.DesiredState.Manifest.ID = pod.ID
	if errs := validation.ValidatePod(pod); len(errs) > 0 {
		return nil, apierrors.NewInvalid("pod", pod.ID, errs)
	}
	if err := registry.BeforeCreate("pod", &pod.TypeMeta); err != nil {
		return nil, err
	}
	// Ours: v0.4 read the pod back from etcd to answer. The create already
	// returns the stored pod and its resourceVersion, so the answer is the
	// same without the second round trip, which halved how many pods a
	// second the apiserver could create.
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.CreatePod(ctx, pod); err != nil {
			return nil, err
		}
		return pod, nil
	}), nil
}

// Delete deletes the pod id.
func (rs *REST) Delete(ctx api.Context, id string) (<-chan api.Object, error) {
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.DeletePod(ctx, id); err != nil {
			return nil, err
		}
		return &api.Status{Status: api.StatusSuccess}, nil
	}), nil
}

// Get returns the pod id, with its status computed.
func (rs *REST) Get(ctx api.Context, id string) (api.Object, error) {
	pod, err := rs.registry.GetPod(ctx, id)
	if err != nil || rs.minions == nil {
		return pod, err
	}
	if err := rs.fillStatus(pod); err != nil {
		return nil, err
	}
	return pod, nil
}

// podFields are the field names pods can be selected by, as v0.4 spelt
// them.
var podFields = []string{"ID", "DesiredState.Status", "DesiredState.Host"}

func podToSelectableFields(pod *api.Pod) labels.Set {
	return labels.Set{
		"ID":                  pod.ID,
		"DesiredState.Status": string(pod.DesiredState.Status),
		"DesiredState.Host":   pod.DesiredState.Host,
	}
}

// filterFunc selects the pods whose labels match label and whose fields
// match field.
func filterFunc(label, field labels.Selector) func(*api.Pod) bool {
	return func(pod *api.Pod) bool {
		return label.Matches(labels.Set(pod.Labels)) && field.Matches(podToSelectableFields(pod))
	}
}

// List returns the pods that match label and field, each with its status
// computed. Every pod is read and decoded; the selectors only decide what
// is returned. The statuses are computed one pod after another, each bound
// pod with its own LIST of the minions: a LIST of 1 000 running pods sends
// the apiserver 1 000 requests of its own.
func (rs *REST) List(ctx api.Context, label, field labels.Selector) (api.Object, error) {
	if err := registry.CheckFields("pods", field, podFields...); err != nil {
		return nil, err
	}
	pods, err := rs.registry.ListPodsPredicate(ctx, filterFunc(label, field))
	if err != nil || rs.minions == nil {
		return pods, err
	}
	for i := range pods.Items {
		if err := rs.fillStatus(&pods.Items[i]); err != nil {
			return nil, err
		}
	}
	return pods, nil
}

// Watch watches the pods that match label and field.
func (rs *REST) Watch(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	if err := registry.CheckFields("pods", field, podFields...); err != nil {
		return nil, err
	}
	return rs.registry.WatchPods(ctx, resourceVersion, filterFunc(label, field))
}

// Update replaces a pod; the update must carry the pod's current
// resourceVersion.
//
// Ours: v0.4 could update a pod freely only while it was unscheduled; of a
// scheduled one it could change only the labels and the images. Here any
// change is accepted; see UpdatePod in registry/etcd.
func (rs *REST) Update(ctx api.Context, obj api.Object) (<-chan api.Object, error) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return nil, registry.WrongKind("Pod", obj)
	}
	if err := registry.CheckNamespace(ctx, "pod", &pod.TypeMeta); err != nil {
		return nil, err
	}
	if errs := validation.ValidatePod(pod); len(errs) > 0 {
		return nil, apierrors.NewInvalid("pod", pod.ID, errs)
	}
	return apiserver.MakeAsync(func() (api.Object, error) {
		if err := rs.registry.UpdatePod(ctx, pod); err != nil {
			return nil, err
		}
		return rs.registry.GetPod(ctx, pod.ID)
	}), nil
}
