package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/handlers.go as of v0.4
// (October 2014): a wrapper that keeps one panicking request from taking
// the server down.

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

// responseWriter remembers the status code written and what the request
// turned out to be, for the metrics and for panic recovery.
type responseWriter struct {
	http.ResponseWriter
	code        int
	wroteHeader bool
	// verb and resource label the request's metrics; handlers refine them
	// once routing knows (LIST versus GET, the storage name).
	verb     string
	resource string
}

// WriteHeader records the code.
func (w *responseWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.code = code
		w.wroteHeader = true
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write records an implicit 200.
func (w *responseWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.code = http.StatusOK
		w.wroteHeader = true
	}
	return w.ResponseWriter.Write(b)
}

// Flush sends buffered data to the client; watch streams need it.
func (w *responseWriter) Flush() {
	if !w.wroteHeader {
		w.code = http.StatusOK
		w.wroteHeader = true
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the underlying writer.
func (w *responseWriter) Unwrap() http.ResponseWriter {
	return w.ResponseWriter
}

// label records the verb and resource of the request, when w is ours.
func label(w http.ResponseWriter, verb, resource string) {
	if rw, ok := w.(*responseWriter); ok {
		rw.verb = verb
		rw.resource = resource
	}
}

// recoverPanics, deferred around a handler, turns a panic into a logged
// 500 Status and lets the server go on. If the response had already begun
// (a watch stream), nothing sensible can be written: the connection is
// aborted instead, so the client sees a broken stream, not a clean end.
//
// Ours: v0.4 answered "apis panic. Look in log for details." in plain text.
func recoverPanics(w *responseWriter, req *http.Request) {
	x := recover()
	if x == nil {
		return
	}
	if x == http.ErrAbortHandler {
		panic(x)
	}
	glog.Errorf("apiserver panic on %s %s: %v\n%s", req.Method, req.RequestURI, x, debug.Stack())
	if w.wroteHeader {
		panic(http.ErrAbortHandler)
	}
	errorJSON(w, errors.NewInternalError(fmt.Errorf("the apiserver panicked serving %s %s; see its log", req.Method, req.URL.Path)))
}

// serveAPI serves one request under the API prefix, counting it by verb,
// resource, code and client, and timing it. Watch streams are neither
// timed nor counted in flight: they last as long as the client wants, and
// have their own gauge.
func (s *apiServer) serveAPI(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	rw := &responseWriter{ResponseWriter: w, verb: methodVerb(req.Method), resource: resourceUnknown}
	streaming := strings.HasPrefix(req.URL.Path, s.prefix+"/watch/")
	if streaming {
		rw.verb = verbWatch
	} else {
		s.metrics.inflight.Inc()
		defer s.metrics.inflight.Dec()
	}
	defer func() {
		code := rw.code
		if !rw.wroteHeader {
			code = http.StatusOK
		}
		s.metrics.observe(rw.verb, rw.resource, code, req.UserAgent(), start, !streaming)
	}()
	defer recoverPanics(rw, req)
	s.router.ServeHTTP(rw, req)
}
