// Package service defines the storage interface of services and their REST
// storage. Deleting a service also deletes its endpoints.
//
// Follows kubernetes/kubernetes pkg/registry/service as of v0.4 (October
// 2014), without its cloud load balancers and environment variables.
package service
