// Package api holds the objects of the 2014 Kubernetes API as they travel on
// the v1beta1 wire — Pod, ReplicationController, Service, Endpoints, Minion,
// Binding, Status — with the codec that reads them (JSON or YAML, kind
// checked) and writes them (kind and apiVersion stamped on the top object).
// Follows kubernetes/kubernetes pkg/api and pkg/api/v1beta1 as of v0.4
// (commit 4452163, October 2014).
//
// Ours: v0.4 kept an internal version of every type and converted it to
// v1beta1 at the edge; here one set of types is both, so resourceVersion
// is the v1beta1 uint64 everywhere instead of v0.4's internal string.
package api
