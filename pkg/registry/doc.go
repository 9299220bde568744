// Package registry holds the apiserver's storage, one package per resource:
// each defines the Registry its REST type needs and the REST type itself
// (apiserver.RESTStorage, and apiserver.ResourceWatcher where the resource
// can be watched). Package registry/etcd implements every Registry on etcd.
//
// The REST types of pods, controllers, services, endpoints, minions and
// bindings share one shape, written out once per resource: that is v0.4's
// own layout. v0.4 already had a generic registry (pkg/registry/generic,
// 2014-10-09), but only events, which this port leaves out, stood on it;
// upstream moved pods onto it in February 2015 (247e46721).
//
// Follows kubernetes/kubernetes pkg/registry as of v0.4 (October 2014).
package registry
