// Package apiserver serves RESTStorage objects over HTTP as the 2014 API
// did, under /api/v1beta1: <resource>, watch/<resource>, operations (the
// asynchronous writes) and validate; and /healthz, /version and /.
// Follows kubernetes/kubernetes pkg/apiserver as of v0.4 (commit 4452163,
// October 2014).
//
// Ours: every error is a Status naming the problem (v0.4 answered client
// mistakes with a plain-text 404 or a 500); requests are counted and timed
// at /metrics. The fault switch (pkg/lab/faults) wraps the storage from
// cmd/apiserver; no handler here knows of it.
package apiserver
