// Package apiserver serves RESTStorage objects over HTTP as the 2014 API
// did: list, get, create, update and delete under /api/v1beta1/<resource>,
// watch streams under /api/v1beta1/watch/<resource>, asynchronous writes
// tracked as operations under /api/v1beta1/operations, the health of the
// other components under /api/v1beta1/validate, and the support pages
// /healthz, /version and /.
//
// Follows kubernetes/kubernetes pkg/apiserver as of v0.4 (commit 4452163,
// October 2014).
//
// Ours: every error is a Status object naming the problem (v0.4 answered
// client mistakes with a plain-text 404 or a 500); requests are counted and
// timed for Prometheus at /metrics. The laboratory's fault switch
// (pkg/lab/faults) wraps the storage from outside, in cmd/apiserver; no
// handler here knows of it.
package apiserver
