package apiserver

// Follows kubernetes/kubernetes pkg/apiserver/apiserver.go as of v0.4
// (October 2014): one handler holds the REST, watch and operation routes
// under a prefix, plus the support pages.

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/golang/glog"
	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kube-rewind/kube-rewind/pkg/version"
)

// DefaultPrefix is where the v1beta1 API is served.
const DefaultPrefix = "/api/v1beta1"

// asyncOpWait is how long a write waits for its storage call before
// answering 202 with an operation to poll: just long enough for most
// simple writes, as v0.4 chose.
const asyncOpWait = 25 * time.Millisecond

// defaultSyncTimeout is how long a sync=true write waits when the request
// names no timeout.
const defaultSyncTimeout = 30 * time.Second

// DefaultBodyReadTimeout bounds the time a client may take to send a
// request body.
//
// Ours: v0.4 had none.
const DefaultBodyReadTimeout = 30 * time.Second

// DefaultMaxRequestBytes bounds a request body.
//
// Ours: v0.4 read bodies without a limit.
const DefaultMaxRequestBytes = 3 << 20

// VersionInfo is what GET /version answers.
type VersionInfo struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
	// Ours: the five keys above are v0.4's; this one says who answers, so
	// nobody mistakes the port for the original. 2014 clients ignore it.
	Emulation string `json:"emulation,omitempty"`
}

// DefaultVersion is the version served when Options names none: the one
// every binary of the port reports (pkg/version), so kubecfg's
// -expect_version_match holds.
var DefaultVersion = func() VersionInfo {
	v := version.Get()
	return VersionInfo{
		Major:        v.Major,
		Minor:        v.Minor,
		GitVersion:   v.GitVersion,
		GitCommit:    v.GitCommit,
		GitTreeState: v.GitTreeState,
		Emulation:    "kube-rewind, emulating the Kubernetes v0.4 apiserver (commit 4452163, October 2014)",
	}
}()

// Options tunes a handler; the zero value gives the defaults.
type Options struct {
	// MaxRequestBytes bounds a request body (default DefaultMaxRequestBytes).
	MaxRequestBytes int64
	// BodyReadTimeout bounds the time a client may take to send its body
	// (default DefaultBodyReadTimeout).
	BodyReadTimeout time.Duration
	// AsyncOpWait is how long a write waits before answering 202 (default
	// 25ms).
	AsyncOpWait time.Duration
	// Registry receives the metrics and is served at /metrics. When nil the
	// handler makes its own, with Go runtime and process metrics, so that
	// several handlers can live in one test binary.
	Registry *prometheus.Registry
	// Version is served at /version (default DefaultVersion).
	Version *VersionInfo
	// ValidateServers maps each component that <prefix>/validate checks to
	// its host:port (default DefaultValidateServers).
	ValidateServers map[string]string
	// StopWatches, when closed, ends every watch stream cleanly, as if
	// the storage had closed it. A server shutting down closes it before
	// it stops its storage, so that clients see the end of their streams
	// and not an ERROR from a storage that went away under them.
	StopWatches <-chan struct{}
}

// NewRegistry returns a metrics registry holding the Go runtime's and the
// process's collectors, ready for a handler's request metrics.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Handle returns the handler serving storage under prefix (normally
// DefaultPrefix) with the support pages /healthz, /version, / and /metrics.
func Handle(storage map[string]RESTStorage, prefix string, opts Options) http.Handler {
	return newAPIServer(storage, prefix, opts)
}

// apiServer is the handler Handle returns; tests reach its parts.
type apiServer struct {
	storage map[string]RESTStorage
	prefix  string
	// resources lists the served storage names, sorted, for messages.
	resources []string
	opts      Options
	ops       *Operations
	metrics   *metrics
	router    *mux.Router
}

func newAPIServer(storage map[string]RESTStorage, prefix string, opts Options) *apiServer {
	prefix = strings.TrimRight(prefix, "/")
	if prefix == "" {
		prefix = DefaultPrefix
	}
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if opts.BodyReadTimeout <= 0 {
		opts.BodyReadTimeout = DefaultBodyReadTimeout
	}
	if opts.AsyncOpWait <= 0 {
		opts.AsyncOpWait = asyncOpWait
	}
	if opts.Registry == nil {
		opts.Registry = NewRegistry()
	}
	if opts.ValidateServers == nil {
		opts.ValidateServers = DefaultValidateServers
	}
	if opts.Version == nil {
		v := DefaultVersion
		opts.Version = &v
	}
	served := map[string]RESTStorage{}
	for name, st := range storage {
		if name == "watch" || name == "operations" || name == "validate" || name == "" || strings.Contains(name, "/") {
			glog.Errorf("storage %q cannot be served: the name is reserved or not one path segment", name)
			continue
		}
		served[name] = st
	}
	resources := make([]string, 0, len(served))
	for name := range served {
		resources = append(resources, name)
	}
	sort.Strings(resources)

	s := &apiServer{
		storage:   served,
		prefix:    prefix,
		resources: resources,
		opts:      opts,
		ops:       NewOperations(),
		metrics:   newMetrics(opts.Registry),
	}
	s.router = s.routes()
	return s
}

// routes lays out the URL space. Ours: v0.4 used http.ServeMux and split
// paths by hand; gorilla/mux gives the same table with named segments.
// SkipClean keeps mux from answering odd paths ("//", "..") with a 301: they
// get a 404 Status instead.
func (s *apiServer) routes() *mux.Router {
	r := mux.NewRouter().SkipClean(true)
	r.NotFoundHandler = http.HandlerFunc(s.notFound)
	r.MethodNotAllowedHandler = http.HandlerFunc(s.notFound)

	api := r.PathPrefix(s.prefix).Subrouter()
	rest := &RESTHandler{server: s}
	watch := &WatchHandler{server: s}
	ops := &OperationHandler{server: s}
	api.Handle("/watch", http.HandlerFunc(s.notFound))
	api.Handle("/watch/", http.HandlerFunc(s.notFound))
	api.Handle("/watch/{resource}", watch)
	api.Handle("/operations", ops)
	api.Handle("/operations/", ops)
	api.Handle("/operations/{id}", ops)
	api.Handle("/validate", newValidator(s.opts.ValidateServers))
	api.Handle("/{resource}", rest)
	api.Handle("/{resource}/", rest)
	api.Handle("/{resource}/{id}", rest)
	api.Handle("/{resource}/{id}/", rest)
	api.PathPrefix("/").HandlerFunc(s.notFound)
	r.Handle(s.prefix, http.HandlerFunc(s.notFound))

	r.HandleFunc("/healthz", handleHealthz)
	r.HandleFunc("/version", s.handleVersion)
	r.Handle("/metrics", promhttp.HandlerFor(s.opts.Registry, promhttp.HandlerOpts{}))
	r.HandleFunc("/", handleIndex)
	r.HandleFunc("/index.html", handleIndex)
	return r
}

// ServeHTTP counts and times API requests, recovers from panics, and hands
// the request to the router.
func (s *apiServer) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	path := req.URL.Path
	if path != s.prefix && !strings.HasPrefix(path, s.prefix+"/") {
		rw := &responseWriter{ResponseWriter: w}
		defer recoverPanics(rw, req)
		s.router.ServeHTTP(rw, req)
		return
	}
	s.serveAPI(w, req)
}

// handleHealthz answers that the process is alive.
func handleHealthz(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte("ok"))
}

// handleVersion writes the server's version.
func (s *apiServer) handleVersion(w http.ResponseWriter, req *http.Request) {
	out, err := json.Marshal(s.opts.Version)
	if err != nil {
		errorJSON(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(out)
}

// indexPage is the welcome page.
//
// Ours: v0.4 said only "Welcome to Kubernetes"; the page also says what
// this server is and where to look.
const indexPage = `<html><body>
<p>Welcome to kube-rewind: the Kubernetes v0.4 (October 2014) API, rebuilt.</p>
<p>The v1beta1 API is under <a href="/api/v1beta1/pods">/api/v1beta1</a>;
see also <a href="/version">/version</a>, <a href="/healthz">/healthz</a>
and <a href="/metrics">/metrics</a>.</p>
</body></html>
`

// handleIndex serves the welcome page at / and /index.html.
func handleIndex(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(indexPage))
}

// resourceList names the served resources for messages.
func (s *apiServer) resourceList() string {
	if len(s.resources) == 0 {
		return "(none)"
	}
	return strings.Join(s.resources, ", ")
}
