package apiserver

import (
	"net/http"
	"time"
)

// DefaultServerTimeout is the ReadTimeout and the WriteTimeout v0.4's
// apiserver set on its http.Server (cmd/apiserver/apiserver.go), so a
// watch stream ended after at most five minutes; "Watches end after five
// minutes" in cmd/README.md tells what that cost the 2014 manager. Modern: a
// watch ends after the timeoutSeconds its client asks for (client-go: 5 to
// 10 minutes, at random), or else between --min-request-timeout (30 min)
// and twice that.
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
