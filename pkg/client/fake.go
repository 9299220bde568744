package client

// Follows kubernetes/kubernetes pkg/client/fake.go as of v0.4 (October
// 2014): a client that records each call under a short name ("list-pods",
// "update-controller", ...) and answers from canned values.

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// FakeAction is one recorded call: its name and its argument of interest
// (an id, an object or a resourceVersion).
type FakeAction struct {
	Action string
	Value  interface{}
}

// Fake implements Interface without a server. Set the canned values before
// use; every call returns Err alongside its answer.
//
// Ours: v0.4's Fake appended to a public Actions slice with no lock, a race
// under the manager's goroutine per pod; here a mutex guards the record,
// read through Actions(). Every call returns Err and is recorded with its
// argument, answers are deep copies (gets look the id up in the canned
// lists), and Watch is a *watch.FakeWatcher tests can push events into.
type Fake struct {
	Pods      api.PodList
	Ctrl      api.ReplicationController
	CtrlList  api.ReplicationControllerList
	Services  api.ServiceList
	Endpoints api.EndpointsList
	Minions   api.MinionList
	Version   VersionInfo
	Err       error
	// Watch is returned by every Watch call; with none set, those calls
	// fail.
	Watch *watch.FakeWatcher

	mu      sync.Mutex
	actions []FakeAction
}

var _ Interface = &Fake{}

// Actions returns a copy of the calls recorded so far, in order.
func (c *Fake) Actions() []FakeAction {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]FakeAction(nil), c.actions...)
}

// ClearActions forgets the recorded calls.
func (c *Fake) ClearActions() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.actions = nil
}

// record notes a call and, under the same lock, deep-copies a canned value
// into out (when both are given) so that callers may change what they get.
func (c *Fake) record(action string, value interface{}, canned, out interface{}) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.actions = append(c.actions, FakeAction{Action: action, Value: value})
	if canned != nil && out != nil {
		deepCopy(canned, out)
	}
	return c.Err
}

// deepCopy copies src into dst through JSON, which every API type survives.
func deepCopy(src, dst interface{}) {
	data, err := json.Marshal(src)
	if err != nil {
		panic(fmt.Sprintf("fake client: cannot copy %T: %v", src, err))
	}
	if err := json.Unmarshal(data, dst); err != nil {
		panic(fmt.Sprintf("fake client: cannot copy %T: %v", src, err))
	}
}

func (c *Fake) watch(action string, resourceVersion uint64) (watch.Interface, error) {
	err := c.record(action, resourceVersion, nil, nil)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.Watch == nil {
		if err == nil {
			err = fmt.Errorf("fake client: no Watch set for %s", action)
		}
		return nil, err
	}
	return c.Watch, err
}

// ListPods records list-pods and returns Pods.
func (c *Fake) ListPods(ctx api.Context, selector labels.Selector) (*api.PodList, error) {
	out := &api.PodList{}
	err := c.record("list-pods", nil, &c.Pods, out)
	return out, err
}

// GetPod records get-pod and returns the pod of Pods with that id, or an
// empty pod.
func (c *Fake) GetPod(ctx api.Context, id string) (*api.Pod, error) {
	out := &api.Pod{}
	c.mu.Lock()
	var found *api.Pod
	for i := range c.Pods.Items {
		if c.Pods.Items[i].ID == id {
			found = &c.Pods.Items[i]
			break
		}
	}
	c.mu.Unlock()
	err := c.record("get-pod", id, found, out)
	return out, err
}

// DeletePod records delete-pod.
func (c *Fake) DeletePod(ctx api.Context, id string) error {
	return c.record("delete-pod", id, nil, nil)
}

// CreatePod records create-pod with the pod and returns a copy of it.
func (c *Fake) CreatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error) {
	out := &api.Pod{}
	err := c.record("create-pod", pod, pod, out)
	return out, err
}

// UpdatePod records update-pod with the pod's id.
func (c *Fake) UpdatePod(ctx api.Context, pod *api.Pod) (*api.Pod, error) {
	out := &api.Pod{}
	err := c.record("update-pod", pod.ID, pod, out)
	return out, err
}

// WatchPods records watch-pods with the resourceVersion and returns Watch.
func (c *Fake) WatchPods(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch("watch-pods", resourceVersion)
}

// CreateBinding records create-binding with the binding.
func (c *Fake) CreateBinding(ctx api.Context, binding *api.Binding) error {
	return c.record("create-binding", binding, nil, nil)
}

// ListReplicationControllers records list-controllers and returns CtrlList.
func (c *Fake) ListReplicationControllers(ctx api.Context, selector labels.Selector) (*api.ReplicationControllerList, error) {
	out := &api.ReplicationControllerList{}
	err := c.record("list-controllers", nil, &c.CtrlList, out)
	return out, err
}

// GetReplicationController records get-controller and returns Ctrl.
func (c *Fake) GetReplicationController(ctx api.Context, id string) (*api.ReplicationController, error) {
	out := &api.ReplicationController{}
	err := c.record("get-controller", id, &c.Ctrl, out)
	return out, err
}

// CreateReplicationController records create-controller with the
// controller and returns a copy of it.
func (c *Fake) CreateReplicationController(ctx api.Context, controller *api.ReplicationController) (*api.ReplicationController, error) {
	out := &api.ReplicationController{}
	err := c.record("create-controller", controller, controller, out)
	return out, err
}

// UpdateReplicationController records update-controller with the
// controller and returns a copy of it.
func (c *Fake) UpdateReplicationController(ctx api.Context, controller *api.ReplicationController) (*api.ReplicationController, error) {
	out := &api.ReplicationController{}
	err := c.record("update-controller", controller, controller, out)
	return out, err
}

// DeleteReplicationController records delete-controller with the id.
func (c *Fake) DeleteReplicationController(ctx api.Context, id string) error {
	return c.record("delete-controller", id, nil, nil)
}

// WatchReplicationControllers records watch-controllers with the
// resourceVersion and returns Watch.
func (c *Fake) WatchReplicationControllers(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch("watch-controllers", resourceVersion)
}

// ListServices records list-services and returns Services.
func (c *Fake) ListServices(ctx api.Context, selector labels.Selector) (*api.ServiceList, error) {
	out := &api.ServiceList{}
	err := c.record("list-services", nil, &c.Services, out)
	return out, err
}

// GetService records get-service and returns the service of Services with
// that id, or an empty service.
func (c *Fake) GetService(ctx api.Context, id string) (*api.Service, error) {
	out := &api.Service{}
	c.mu.Lock()
	var found *api.Service
	for i := range c.Services.Items {
		if c.Services.Items[i].ID == id {
			found = &c.Services.Items[i]
			break
		}
	}
	c.mu.Unlock()
	err := c.record("get-service", id, found, out)
	return out, err
}

// CreateService records create-service with the service and returns a copy.
func (c *Fake) CreateService(ctx api.Context, svc *api.Service) (*api.Service, error) {
	out := &api.Service{}
	err := c.record("create-service", svc, svc, out)
	return out, err
}

// UpdateService records update-service with the service and returns a copy.
func (c *Fake) UpdateService(ctx api.Context, svc *api.Service) (*api.Service, error) {
	out := &api.Service{}
	err := c.record("update-service", svc, svc, out)
	return out, err
}

// DeleteService records delete-service with the id.
func (c *Fake) DeleteService(ctx api.Context, id string) error {
	return c.record("delete-service", id, nil, nil)
}

// WatchServices records watch-services with the resourceVersion and returns
// Watch.
func (c *Fake) WatchServices(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch("watch-services", resourceVersion)
}

// ListEndpoints records list-endpoints and returns Endpoints.
func (c *Fake) ListEndpoints(ctx api.Context, selector labels.Selector) (*api.EndpointsList, error) {
	out := &api.EndpointsList{}
	err := c.record("list-endpoints", nil, &c.Endpoints, out)
	return out, err
}

// GetEndpoints records get-endpoints and returns the entry of Endpoints with
// that id, or empty endpoints.
func (c *Fake) GetEndpoints(ctx api.Context, id string) (*api.Endpoints, error) {
	out := &api.Endpoints{}
	c.mu.Lock()
	var found *api.Endpoints
	for i := range c.Endpoints.Items {
		if c.Endpoints.Items[i].ID == id {
			found = &c.Endpoints.Items[i]
			break
		}
	}
	c.mu.Unlock()
	err := c.record("get-endpoints", id, found, out)
	return out, err
}

// WatchEndpoints records watch-endpoints with the resourceVersion and
// returns Watch.
func (c *Fake) WatchEndpoints(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch("watch-endpoints", resourceVersion)
}

// CreateEndpoints records create-endpoints with the object and returns a
// copy.
func (c *Fake) CreateEndpoints(ctx api.Context, endpoints *api.Endpoints) (*api.Endpoints, error) {
	out := &api.Endpoints{}
	err := c.record("create-endpoints", endpoints, endpoints, out)
	return out, err
}

// UpdateEndpoints records update-endpoints with the object and returns a
// copy.
func (c *Fake) UpdateEndpoints(ctx api.Context, endpoints *api.Endpoints) (*api.Endpoints, error) {
	out := &api.Endpoints{}
	err := c.record("update-endpoints", endpoints, endpoints, out)
	return out, err
}

// ServerVersion records get-version and returns Version.
func (c *Fake) ServerVersion() (*VersionInfo, error) {
	out := &VersionInfo{}
	err := c.record("get-version", nil, &c.Version, out)
	return out, err
}

// ListMinions records list-minions and returns Minions.
func (c *Fake) ListMinions() (*api.MinionList, error) {
	out := &api.MinionList{}
	err := c.record("list-minions", nil, &c.Minions, out)
	return out, err
}

// CreateMinion records create-minion with the minion and returns a copy.
func (c *Fake) CreateMinion(minion *api.Minion) (*api.Minion, error) {
	out := &api.Minion{}
	err := c.record("create-minion", minion, minion, out)
	return out, err
}

// DeleteMinion records delete-minion with the id.
func (c *Fake) DeleteMinion(id string) error {
	return c.record("delete-minion", id, nil, nil)
}
