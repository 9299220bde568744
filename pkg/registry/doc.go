// Package registry holds the apiserver's storage, one package per resource:
// each defines the Registry its REST type needs and the REST type itself
// (apiserver.RESTStorage, and apiserver.ResourceWatcher where the resource
// can be watched). Package registry/etcd implements every Registry on etcd.
//
// Follows kubernetes/kubernetes pkg/registry as of v0.4 (October 2014).
package registry
