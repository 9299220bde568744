package etcd

// Follows kubernetes/kubernetes pkg/api/errors/etcd/etcd.go as of v0.4
// (October 2014): etcd's error codes become API errors with their HTTP
// codes.
//
// Ours: v0.4 passed every other etcd error through, which the apiserver
// answered with a 500. An unreachable etcd is a 503 here, so that clients
// can tell "try again" from a server fault, and an update of a key that is
// gone (etcd 100 on compare-and-swap) is a 404.

import (
	"fmt"

	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// interpretOther handles what the specific cases did not: API errors pass
// through, an unreachable etcd is 503, anything else 500.
func interpretOther(err error) error {
	switch {
	case err == nil:
		return nil
	case isAPIError(err):
		return err
	case tools.IsEtcdUnreachable(err):
		return apierrors.NewServiceUnavailable(fmt.Sprintf("storage is unreachable: %v", err))
	default:
		return apierrors.NewInternalError(err)
	}
}

func isAPIError(err error) bool {
	_, ok := err.(apierrors.APIStatus)
	return ok
}

// interpretGetError turns a failed read of kind/id into an API error.
func interpretGetError(err error, kind, id string) error {
	if tools.IsEtcdNotFound(err) {
		return apierrors.NewNotFound(kind, id)
	}
	return interpretOther(err)
}

// interpretCreateError turns a failed create of kind/id into an API error.
func interpretCreateError(err error, kind, id string) error {
	if tools.IsEtcdNodeExist(err) {
		return apierrors.NewAlreadyExists(kind, id)
	}
	return interpretOther(err)
}

// interpretUpdateError turns a failed update of kind/id into an API error:
// a stale resourceVersion (101) and an update without one of an object
// that exists (105) are both conflicts.
func interpretUpdateError(err error, kind, id string) error {
	switch {
	case tools.IsEtcdTestFailed(err), tools.IsEtcdNodeExist(err):
		return apierrors.NewConflict(kind, id, err)
	case tools.IsEtcdNotFound(err):
		return apierrors.NewNotFound(kind, id)
	}
	return interpretOther(err)
}

// interpretDeleteError turns a failed delete of kind/id into an API error.
func interpretDeleteError(err error, kind, id string) error {
	if tools.IsEtcdNotFound(err) {
		return apierrors.NewNotFound(kind, id)
	}
	return interpretOther(err)
}

// interpretListError turns a failed list into an API error.
func interpretListError(err error) error {
	return interpretOther(err)
}
