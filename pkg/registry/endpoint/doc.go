// Package endpoint defines the storage interface of endpoints, the
// "ip:port" list behind each service that the endpoints controller keeps,
// and their REST storage.
//
// Follows kubernetes/kubernetes pkg/registry/endpoint as of v0.4 (October
// 2014).
package endpoint
