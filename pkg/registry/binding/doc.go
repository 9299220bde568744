// Package binding defines the storage interface of bindings and their REST
// storage: a POSTed binding assigns a pod to a host, the scheduler's one
// write.
//
// Follows kubernetes/kubernetes pkg/registry/binding as of v0.4 (October
// 2014).
package binding
