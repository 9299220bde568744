package apiserver

import (
	"net/http"
	"time"
)

// DefaultServerTimeout is the ReadTimeout and the WriteTimeout v0.4's
// apiserver set on its http.Server (cmd/apiserver/apiserver.go).
//
// Every request, watches included, lives on a connection whose deadlines
// pass this long after the request began, so a watch stream ended after at
// most five minutes. The 2014 manager then waited out its period and
// watched again from the last resourceVersion it had seen; if more than
// etcd's 1 000 events had happened since, that watch failed (etcd-io/etcd#925)
// until the manager learned to start over from "" (kubernetes/kubernetes
// 874859f6d, February 2015). Modern: a watch ends after the timeoutSeconds
// its client asks for (client-go's reflectors ask for 5 to 10 minutes, at
// random, so that re-watches spread out), or without one after a random
// time between kube-apiserver's --min-request-timeout (30 min) and twice
// that.
const DefaultServerTimeout = 5 * time.Minute

// NewHTTPServer returns the http.Server that serves handler, with timeout as
// its ReadTimeout and WriteTimeout; 0 means none, and a watch lasts until
// its client or the server ends it.
//
// Ours: request headers must arrive within 10 s (or timeout, if shorter),
// and headers are limited to 1 MiB as in v0.4; a ReadHeaderTimeout did not
// exist in Go in 2014, so there headers had the whole ReadTimeout.
func NewHTTPServer(handler http.Handler, timeout time.Duration) *http.Server {
	header := 10 * time.Second
	if timeout > 0 && timeout < header {
		header = timeout
	}
	return &http.Server{
		Handler:           handler,
		ReadTimeout:       timeout,
		WriteTimeout:      timeout,
		ReadHeaderTimeout: header,
		MaxHeaderBytes:    1 << 20,
	}
}
