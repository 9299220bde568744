// Package registrytest holds what the registry tests share: a helper on a
// wiped etcd, valid objects of each kind, hostile ids, and a way to wait
// for the result of an asynchronous REST call.
//
// Follows the role of kubernetes/kubernetes pkg/registry/registrytest as of
// v0.4 (October 2014), which held fake registries; here the tests run
// against a real (embedded) etcd instead.
package registrytest
