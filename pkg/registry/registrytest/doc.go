// Package registrytest holds what the tests of the 2014 stack's storage
// and API share: a helper on an etcd of the test's own, valid objects of
// each kind and a way to create them, hostile ids and the check that every
// resource refuses them, the check that a deleted object is gone, the
// apiserver's answer to a write still running, a way to wait for the
// result of an asynchronous REST call, and the value of a metric. Waiting
// for a watch's events is package watchtest's.
//
// Follows the role of kubernetes/kubernetes pkg/registry/registrytest as of
// v0.4 (October 2014), which held fake registries; here the tests run
// against a real (embedded) etcd instead.
package registrytest
