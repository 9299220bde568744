//go:build !modern

package service

// Follows kubernetes/kubernetes pkg/service/endpoints_controller.go as of
// v0.4 (commit 4452163, October 2014), when it had just moved from the
// apiserver into the controller-manager. Log messages keep v0.4's wording
// and levels. The modern controller is in endpoints_controller_modern.go
// (-tags modern).

import (
	"net"
	"strconv"

	"github.com/golang/glog"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// EndpointController keeps every service's endpoints up to date.
type EndpointController struct {
	client client.Interface
}

// NewEndpointController returns a controller that talks to the apiserver
// through client.
//
// Ours: v0.4 took the concrete *client.Client; the interface lets tests use
// the fake.
func NewEndpointController(client client.Interface) *EndpointController {
	return &EndpointController{
		client: client,
	}
}

// SyncServiceEndpoints recomputes the endpoints of every service. The
// controller-manager runs it every 10 s under util.Forever, whether or not
// anything changed.
func (e *EndpointController) SyncServiceEndpoints() error {
	// Each pass costs 1 + 2·S requests for S services — one LIST of
	// services, then a LIST of pods and a GET of endpoints per service —
	// and every pod LIST reads all pods on the server. In the 2015 density
	// tests these LISTs were most of the apiserver's CPU. Modern: informers
	// on services and pods, and a workqueue of the services whose pods
	// changed (history: endpoints-informer).
	ctx := api.NewContext()
	services, err := e.client.ListServices(ctx, labels.Everything())
	if err != nil {
		errorsTotal.Inc()
		glog.Errorf("Failed to list services: %v", err)
		return err
	}
	var resultErr error
	for _, service := range services.Items {
		passes.Inc()
		nsCtx := api.WithNamespace(ctx, service.Namespace)
		pods, err := e.client.ListPods(nsCtx, labels.Set(service.Selector).AsSelector())
		if err != nil {
			// One service's failure does not stop the pass; the last error
			// is returned at the end (util.Forever ignores it).
			errorsTotal.Inc()
			glog.Errorf("Error syncing service: %#v, skipping.", service)
			resultErr = err
			continue
		}
		endpoints := []string{}
		for _, pod := range pods.Items {
			port, err := findPort(&pod.DesiredState.Manifest, service.ContainerPort)
			if err != nil {
				glog.Errorf("Failed to find port for service: %v, %v", service, err)
				continue
			}
			// A pod without an IP is not running yet (or not scheduled); it
			// is left out, and joins the list on a later pass. This ordinary
			// state is logged as an error, the whole pod with it, for every
			// such pod at every pass: v0.4's log line, kept as it was.
			if len(pod.CurrentState.PodIP) == 0 {
				glog.Errorf("Failed to find an IP for pod: %v", pod)
				continue
			}
			endpoints = append(endpoints, net.JoinHostPort(pod.CurrentState.PodIP, strconv.Itoa(port)))
		}
		currentEndpoints, err := e.client.GetEndpoints(nsCtx, service.ID)
		if err != nil {
			if !errors.IsNotFound(err) {
				errorsTotal.Inc()
				glog.Errorf("Error getting endpoints: %#v", err)
				continue
			}
			currentEndpoints = &api.Endpoints{TypeMeta: api.TypeMeta{ID: service.ID}}
		}
		newEndpoints := &api.Endpoints{}
		*newEndpoints = *currentEndpoints
		newEndpoints.Endpoints = endpoints

		// No resourceVersion means the object does not exist yet: create
		// it. Otherwise write only when the set of addresses changed — v0.4
		// added this check; before it, every pass rewrote every endpoints
		// object.
		if currentEndpoints.ResourceVersion == 0 {
			writes.WithLabelValues("POST").Inc()
			_, err = e.client.CreateEndpoints(nsCtx, newEndpoints)
		} else {
			if endpointsEqual(currentEndpoints, endpoints) {
				glog.V(2).Infof("endpoints are equal for %s, skipping update", service.ID)
				continue
			}
			writes.WithLabelValues("PUT").Inc()
			_, err = e.client.UpdateEndpoints(nsCtx, newEndpoints)
		}
		if err != nil {
			errorsTotal.Inc()
			glog.Errorf("Error updating endpoints: %#v", err)
			continue
		}
	}
	return resultErr
}
