package etcd

// Follows kubernetes/kubernetes pkg/registry/etcd/etcd.go as of v0.4
// (October 2014): one Registry type over EtcdHelper serves every resource,
// and each resource's keys come from one make...Key function.

import (
	"fmt"

	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/api/validation"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// Registry stores every resource in etcd.
type Registry struct {
	tools.EtcdHelper
}

// NewRegistry returns a Registry on helper.
func NewRegistry(helper tools.EtcdHelper) *Registry {
	return &Registry{EtcdHelper: helper}
}

// The directories each resource lives in.
const (
	podsPrefix        = "/registry/pods"
	controllersPrefix = "/registry/controllers"
	servicesPrefix    = "/registry/services/specs"
	endpointsPrefix   = "/registry/services/endpoints"
	minionsPrefix     = "/registry/minions"
)

// makeKey returns prefix/id once id passes the id rule of resource.
//
// Ours: v0.4 joined the id to the prefix unchecked, so an id such as
// "../controllers/evil" wrote into another resource's directory. Every key
// is built here, after validation.ValidateID; an id that fails is a 400
// naming it. Creates never get this far with a bad id: their validation
// answers 422 first.
func makeKey(resource, kind, prefix, id string) (string, error) {
	if errs := validation.ValidateID(resource, id); len(errs) > 0 {
		return "", apierrors.NewBadRequest(fmt.Sprintf("%s id %q is not valid: %v", kind, id, errs.ToError()))
	}
	return prefix + "/" + id, nil
}

func makePodKey(id string) (string, error) {
	return makeKey("pods", "pod", podsPrefix, id)
}

func makeControllerKey(id string) (string, error) {
	return makeKey("replicationControllers", "replicationController", controllersPrefix, id)
}

func makeServiceKey(id string) (string, error) {
	return makeKey("services", "service", servicesPrefix, id)
}

func makeServiceEndpointsKey(id string) (string, error) {
	return makeKey("endpoints", "endpoints", endpointsPrefix, id)
}

func makeMinionKey(id string) (string, error) {
	return makeKey("minions", "minion", minionsPrefix, id)
}
