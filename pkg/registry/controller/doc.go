// Package controller defines the storage interface of replication
// controllers and their REST storage, which fills currentState.replicas on
// every read by counting the pods the controller's selector matches.
//
// Follows kubernetes/kubernetes pkg/registry/controller as of v0.4 (October
// 2014).
package controller
