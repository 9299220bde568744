// Package etcd implements the registries of pods, replication controllers,
// services, endpoints, minions and bindings on etcd, under the 2014 key
// layout: /registry/pods/<id>, /registry/controllers/<id>,
// /registry/services/specs/<id>, /registry/services/endpoints/<id> and
// /registry/minions/<id>.
//
// Follows kubernetes/kubernetes pkg/registry/etcd/etcd.go and
// pkg/api/errors/etcd as of v0.4 (October 2014).
package etcd
