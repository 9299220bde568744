package tools

// Follows kubernetes/kubernetes pkg/tools/etcd_tools.go as of v0.4 (October
// 2014) for the error codes and their tests. IsEtcdWatchExpired,
// IsEtcdUnreachable and the Status of a failed watch are ours.

import (
	"errors"
	"fmt"
	"net"
	"net/url"

	"github.com/coreos/go-etcd/etcd"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// The etcd v2 error codes the helpers look for.
const (
	EtcdErrorCodeNotFound      = 100
	EtcdErrorCodeTestFailed    = 101
	EtcdErrorCodeNodeExist     = 105
	EtcdErrorCodeValueRequired = 200
	// EtcdErrorCodeEventIndexCleared: the watch asked for an index older
	// than the 1000 events etcd keeps.
	EtcdErrorCodeEventIndexCleared = 401
)

// Errors of each kind, for fakes and tests.
var (
	EtcdErrorNotFound      = &etcd.EtcdError{ErrorCode: EtcdErrorCodeNotFound}
	EtcdErrorTestFailed    = &etcd.EtcdError{ErrorCode: EtcdErrorCodeTestFailed}
	EtcdErrorNodeExist     = &etcd.EtcdError{ErrorCode: EtcdErrorCodeNodeExist}
	EtcdErrorValueRequired = &etcd.EtcdError{ErrorCode: EtcdErrorCodeValueRequired}
)

// IsEtcdNotFound reports whether err is etcd's "key not found" (100).
func IsEtcdNotFound(err error) bool {
	return isEtcdErrorNum(err, EtcdErrorCodeNotFound)
}

// IsEtcdNodeExist reports whether err is etcd's "key already exists" (105).
func IsEtcdNodeExist(err error) bool {
	return isEtcdErrorNum(err, EtcdErrorCodeNodeExist)
}

// IsEtcdTestFailed reports whether err is a failed compare-and-swap (101).
func IsEtcdTestFailed(err error) bool {
	return isEtcdErrorNum(err, EtcdErrorCodeTestFailed)
}

// IsEtcdWatchExpired reports whether err says that a watch asked for an
// index etcd no longer remembers (401, "event index cleared").
func IsEtcdWatchExpired(err error) bool {
	return isEtcdErrorNum(err, EtcdErrorCodeEventIndexCleared)
}

// IsEtcdWatchStoppedByUser reports whether err is go-etcd's answer to a
// stopped watch.
func IsEtcdWatchStoppedByUser(err error) bool {
	return err == etcd.ErrWatchStoppedByUser
}

// IsEtcdUnreachable reports whether err means that no etcd member answered:
// go-etcd's "all the given peers are not reachable" (501) or a bare network
// error.
func IsEtcdUnreachable(err error) bool {
	if err == nil {
		return false
	}
	if isEtcdErrorNum(err, etcd.ErrCodeEtcdNotReachable) {
		return true
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		return true
	}
	var netErr net.Error
	return errors.As(err, &netErr)
}

func isEtcdErrorNum(err error, errorCode int) bool {
	var etcdError *etcd.EtcdError
	return errors.As(err, &etcdError) && etcdError != nil && etcdError.ErrorCode == errorCode
}

// etcdErrorIndex returns the etcd index an etcd error carries, if err is
// one.
func etcdErrorIndex(err error) (uint64, bool) {
	var etcdError *etcd.EtcdError
	if errors.As(err, &etcdError) && etcdError != nil {
		return etcdError.Index, true
	}
	return 0, false
}

// errorEvent describes a failed etcd watch as an ERROR event carrying a
// Status.
//
// Ours: v0.4 sent every failure as a Status with only a message. An index
// etcd no longer remembers becomes 410 Gone here, the code Kubernetes
// adopted for it later, so a client knows to list again rather than retry
// from the same resourceVersion; an unreachable etcd is a 503.
func (w *etcdWatcher) errorEvent(err error) watch.Event {
	var statusErr error
	switch {
	case IsEtcdWatchExpired(err):
		statusErr = apierrors.NewGone(w.goneMessage(err))
	case IsEtcdUnreachable(err):
		statusErr = apierrors.NewServiceUnavailable(fmt.Sprintf("etcd is unreachable: %v", err))
	default:
		statusErr = apierrors.NewInternalError(fmt.Errorf("etcd watch failed: %v", err))
	}
	status := statusErr.(apierrors.APIStatus).Status()
	return watch.Event{Type: watch.Error, Object: &status}
}

// goneMessage names the resourceVersion that is too old and, when etcd
// said, the oldest index it still has. etcd's cause reads "the requested
// history has been cleared [<oldest>/<requested>]".
func (w *etcdWatcher) goneMessage(err error) string {
	requested := w.fromVersion
	if w.lastIndex > requested {
		requested = w.lastIndex
	}
	var oldest, asked uint64
	if etcdErr, ok := err.(*etcd.EtcdError); ok {
		if n, _ := fmt.Sscanf(etcdErr.Cause, "the requested history has been cleared [%d/%d]", &oldest, &asked); n == 2 && asked > 0 {
			requested = asked - 1
			return fmt.Sprintf("resourceVersion %d is too old to watch from: etcd keeps only its last 1000 events and the oldest it still has is %d; list again and watch from the list's resourceVersion", requested, oldest)
		}
	}
	return fmt.Sprintf("resourceVersion %d is too old to watch from: etcd no longer has the events after it; list again and watch from the list's resourceVersion", requested)
}
