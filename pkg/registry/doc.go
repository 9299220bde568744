// Package registry holds the apiserver's storage, one package per resource,
// each with the Registry its REST type needs and the REST type itself
// (apiserver.RESTStorage, and apiserver.ResourceWatcher where watchable);
// registry/etcd implements every Registry on etcd. Follows
// kubernetes/kubernetes pkg/registry as of v0.4 (October 2014).
//
// The REST types share one shape, written out per resource, as in v0.4: its
// generic registry (pkg/registry/generic, 2014-10-09) carried only events,
// which this port leaves out; pods moved onto it in February 2015
// (247e46721).
package registry
