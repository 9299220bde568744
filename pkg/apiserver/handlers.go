package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/handlers.go as of v0.4
// (October 2014): a wrapper that keeps one panicking request from taking
// the server down.

import (
	"fmt"
	"io"
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
	// written counts the body bytes written; a watch stream's are also
	// handed to stream as they go, since the stream can outlive a window.
	written int64
	stream  func(n int)
}

// countingBody counts the bytes a handler reads of a request body.
type countingBody struct {
	io.ReadCloser
	read int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	return n, err
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
	n, err := w.ResponseWriter.Write(b)
	w.written += int64(n)
	if w.stream != nil {
		w.stream(n)
	}
	return n, err
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

// serveAPI serves one request under the API prefix, counting it and its
// body bytes, read and written, by verb, resource, code and client, and
// timing it. Watch streams are neither timed nor counted in flight: they
// last as long as the client wants, and have their own gauge; their bytes
// are counted as they are written.
func (s *apiServer) serveAPI(w http.ResponseWriter, req *http.Request) {
	start := time.Now()
	rw := &responseWriter{ResponseWriter: w, verb: methodVerb(req.Method), resource: resourceUnknown}
	streaming := strings.HasPrefix(req.URL.Path, s.prefix+"/watch/")
	body := &countingBody{ReadCloser: req.Body}
	if req.Body != nil && req.Body != http.NoBody {
		req.Body = body
	}
	if streaming {
		rw.verb = verbWatch
		rw.stream = func(n int) { s.metrics.streamed(rw.verb, rw.resource, req.UserAgent(), n) }
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
		written := rw.written
		if streaming {
			written = 0
		}
		s.metrics.bytes(rw.verb, rw.resource, req.UserAgent(), body.read, written)
	}()
	defer recoverPanics(rw, req)
	s.router.ServeHTTP(rw, req)
}
