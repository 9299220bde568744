package tools

// Follows kubernetes/kubernetes pkg/tools/etcd_tools.go as of v0.4 (October
// 2014) for the error codes; IsEtcdWatchExpired and IsEtcdUnreachable are
// ours.

import (
	"errors"
	"net"
	"net/url"

	"github.com/coreos/go-etcd/etcd"
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
