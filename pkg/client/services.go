package client

// Follows kubernetes/kubernetes pkg/client/client.go as of v0.4 (October
// 2014): the calls on services, endpoints, minions and the server version.

import (
	"encoding/json"
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// ListServices returns the services whose labels match selector.
func (c *Client) ListServices(ctx api.Context, selector labels.Selector) (result *api.ServiceList, err error) {
	result = &api.ServiceList{}
	err = c.Get().Context(ctx).Path("services").SelectorParam("labels", selector).Do().Into(result)
	return
}

// GetService returns the service id.
func (c *Client) GetService(ctx api.Context, id string) (result *api.Service, err error) {
	result = &api.Service{}
	err = c.Get().Context(ctx).Path("services").Path(id).Do().Into(result)
	return
}

// CreateService creates svc and returns the server's copy.
func (c *Client) CreateService(ctx api.Context, svc *api.Service) (result *api.Service, err error) {
	result = &api.Service{}
	err = c.Post().Context(ctx).Path("services").Body(svc).Do().Into(result)
	return
}

// UpdateService replaces svc, which must carry the resourceVersion it was
// read at.
func (c *Client) UpdateService(ctx api.Context, svc *api.Service) (result *api.Service, err error) {
	result = &api.Service{}
	if svc.ResourceVersion == 0 {
		return nil, missingResourceVersion("service", svc.ID)
	}
	err = c.Put().Context(ctx).Path("services").Path(svc.ID).Body(svc).Do().Into(result)
	return
}

// DeleteService deletes the service id (the server drops its endpoints).
func (c *Client) DeleteService(ctx api.Context, id string) error {
	return c.Delete().Context(ctx).Path("services").Path(id).Do().Error()
}

// WatchServices streams changes to the services matching label and field,
// after resourceVersion.
func (c *Client) WatchServices(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch(ctx, "services", label, field, resourceVersion)
}

// ListEndpoints returns the endpoints whose labels match selector.
func (c *Client) ListEndpoints(ctx api.Context, selector labels.Selector) (result *api.EndpointsList, err error) {
	result = &api.EndpointsList{}
	err = c.Get().Context(ctx).Path("endpoints").SelectorParam("labels", selector).Do().Into(result)
	return
}

// GetEndpoints returns the endpoints of the service id.
func (c *Client) GetEndpoints(ctx api.Context, id string) (result *api.Endpoints, err error) {
	result = &api.Endpoints{}
	err = c.Get().Context(ctx).Path("endpoints").Path(id).Do().Into(result)
	return
}

// WatchEndpoints streams changes to endpoints, after resourceVersion.
func (c *Client) WatchEndpoints(ctx api.Context, label, field labels.Selector, resourceVersion uint64) (watch.Interface, error) {
	return c.watch(ctx, "endpoints", label, field, resourceVersion)
}

// CreateEndpoints creates endpoints and returns the server's copy.
func (c *Client) CreateEndpoints(ctx api.Context, endpoints *api.Endpoints) (*api.Endpoints, error) {
	result := &api.Endpoints{}
	err := c.Post().Context(ctx).Path("endpoints").Body(endpoints).Do().Into(result)
	return result, err
}

// UpdateEndpoints replaces endpoints, which must carry the resourceVersion
// they were read at.
func (c *Client) UpdateEndpoints(ctx api.Context, endpoints *api.Endpoints) (*api.Endpoints, error) {
	if endpoints.ResourceVersion == 0 {
		return nil, missingResourceVersion("endpoints", endpoints.ID)
	}
	result := &api.Endpoints{}
	err := c.Put().Context(ctx).Path("endpoints").Path(endpoints.ID).Body(endpoints).Do().Into(result)
	return result, err
}

// ServerVersion reads GET /version.
func (c *Client) ServerVersion() (*VersionInfo, error) {
	body, err := c.Get().AbsPath("/version").Do().Raw()
	if err != nil {
		return nil, err
	}
	var info VersionInfo
	if err := json.Unmarshal(body, &info); err != nil {
		return nil, fmt.Errorf("got '%s': %v", firstLine(body), err)
	}
	return &info, nil
}

// ListMinions returns every minion. Like v0.4 it sends no selector.
func (c *Client) ListMinions() (result *api.MinionList, err error) {
	result = &api.MinionList{}
	err = c.Get().Path("minions").Do().Into(result)
	return
}

// GetMinion returns the minion id.
func (c *Client) GetMinion(id string) (result *api.Minion, err error) {
	result = &api.Minion{}
	err = c.Get().Path("minions").Path(id).Do().Into(result)
	return
}

// CreateMinion registers minion.
func (c *Client) CreateMinion(minion *api.Minion) (result *api.Minion, err error) {
	result = &api.Minion{}
	err = c.Post().Path("minions").Body(minion).Do().Into(result)
	return
}

// DeleteMinion removes the minion id.
func (c *Client) DeleteMinion(id string) error {
	return c.Delete().Path("minions").Path(id).Do().Error()
}
