package pod

// Follows kubernetes/kubernetes pkg/registry/pod/registry.go as of v0.4
// (October 2014).

import (
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Registry stores pods.
type Registry interface {
	// ListPods returns the pods whose labels match selector.
	ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error)
	// ListPodsPredicate returns the pods for which filter is true.
	ListPodsPredicate(ctx api.Context, filter func(*api.Pod) bool) (*api.PodList, error)
	// WatchPods watches the pods for which filter is true.
	WatchPods(ctx api.Context, resourceVersion uint64, filter func(*api.Pod) bool) (watch.Interface, error)
	GetPod(ctx api.Context, podID string) (*api.Pod, error)
	CreatePod(ctx api.Context, pod *api.Pod) error
	UpdatePod(ctx api.Context, pod *api.Pod) error
	DeletePod(ctx api.Context, podID string) error
}
