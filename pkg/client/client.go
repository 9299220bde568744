package client

// Follows kubernetes/kubernetes pkg/client/client.go as of v0.4 (October
// 2014): Client is a RESTClient with one method per call of Interface. The
// api.Context carried only the namespace then, and v0.4 did not send it
// (namespaces reached the wire in v0.5); here it also cancels the request.

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// Client talks to one apiserver; it is safe for concurrent use.
type Client struct {
	*RESTClient
}

var _ Interface = &Client{}

// missingResourceVersion refuses an update that would let the server fall
// back to a blind write: 2014 storage treated rv 0 as "create".
//
// Ours: v0.4 printed the whole object (%v) in this message; the kind and id
// say the same in one line.
func missingResourceVersion(kind, id string) error {
	return fmt.Errorf("invalid update object, missing resource version: %s %q", kind, id)
}

// ListPods returns the pods whose labels match selector.
func (c *Client) ListPods(ctx api.Context, selector labels.Selector) (result *api.PodList, err error) {
	result = &api.PodList{}
	err = c.Get().Context(ctx).Path("pods").SelectorParam("labels", selector).Do().Into(result)
	return
}

// GetPod returns the pod id.
func (c *Client) GetPod(ctx api.Context, id string) (result *api.Pod, err error) {
	result = &api.Pod{}
	err = c.Get().Context(ctx).Path("pods").Path(id).Do().Into(result)
	return
}

// DeletePod deletes the pod id.
func (c *Client) DeletePod(ctx api.Context, id string) error {
	return c.Delete().Context(ctx).Path("pods").Path(id).Do().Error()
}

// CreatePod creates pod and returns the server's copy.
func (c *Client) CreatePod(ctx api.Context, pod *api.Pod) (result *api.Pod, err error) {
	result = &api.Pod{}
	err = c.Post().Context(ctx).Path("pods").Body(pod).Do().Into(result)
	return
}

// UpdatePod replaces pod, which must carry the resourceVersion it was read at.
func (c *Client) UpdatePod(ctx api.Context, pod *api.Pod) (result *api.Pod, err error) {
	result = &api.Pod{}
	if pod.ResourceVersion == 0 {
		return nil, missingResourceVersion("pod", pod.ID)
	}
	err = c.Put().Context(ctx).Path("pods").Path(pod.ID).Body(pod).Do().Into(result)
	return
}

// WatchPods streams changes to the pods matching label and field, after
// resourceVersion (0: the current pods first, then every change).
func (c *Client) WatchPods(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch(ctx, "pods", label, field, resourceVersion)
}

// CreateBinding asks the server to place a pod on a host.
func (c *Client) CreateBinding(ctx api.Context, binding *api.Binding) error {
	return c.Post().Context(ctx).Path("bindings").Body(binding).Do().Error()
}

// ListReplicationControllers returns the controllers whose labels match
// selector.
func (c *Client) ListReplicationControllers(ctx api.Context, selector labels.Selector) (result *api.ReplicationControllerList, err error) {
	result = &api.ReplicationControllerList{}
	err = c.Get().Context(ctx).Path("replicationControllers").SelectorParam("labels", selector).Do().Into(result)
	return
}

// GetReplicationController returns the controller id.
func (c *Client) GetReplicationController(ctx api.Context, id string) (result *api.ReplicationController, err error) {
	result = &api.ReplicationController{}
	err = c.Get().Context(ctx).Path("replicationControllers").Path(id).Do().Into(result)
	return
}

// CreateReplicationController creates controller and returns the server's
// copy.
func (c *Client) CreateReplicationController(ctx api.Context, controller *api.ReplicationController) (result *api.ReplicationController, err error) {
	result = &api.ReplicationController{}
	err = c.Post().Context(ctx).Path("replicationControllers").Body(controller).Do().Into(result)
	return
}

// UpdateReplicationController replaces controller, which must carry the
// resourceVersion it was read at.
func (c *Client) UpdateReplicationController(ctx api.Context, controller *api.ReplicationController) (result *api.ReplicationController, err error) {
	result = &api.ReplicationController{}
	if controller.ResourceVersion == 0 {
		return nil, missingResourceVersion("replicationController", controller.ID)
	}
	err = c.Put().Context(ctx).Path("replicationControllers").Path(controller.ID).Body(controller).Do().Into(result)
	return
}

// DeleteReplicationController deletes the controller id; its pods stay.
func (c *Client) DeleteReplicationController(ctx api.Context, id string) error {
	return c.Delete().Context(ctx).Path("replicationControllers").Path(id).Do().Error()
}

// WatchReplicationControllers streams changes to the controllers matching
// label and field, after resourceVersion.
func (c *Client) WatchReplicationControllers(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch(ctx, "replicationControllers", label, field, resourceVersion)
}

// watch opens GET /watch/<resource>?fields=&labels=&resourceVersion=N, the
// three parameters every 2014 watch call sent.
func (c *Client) watch(ctx api.Context, resource string, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.Get().
		Context(ctx).
		Path("watch").
		Path(resource).
		UintParam("resourceVersion", resourceVersion).
		SelectorParam("labels", label).
		SelectorParam("fields", field).
		Watch()
}
