package stack

// The meter: our apiserver counts the requests it answers (pkg/apiserver,
// metrics.go) and the sampler reads those counts from its /metrics. The
// original v0.4 apiserver counted nothing, so a stack of it puts this
// counting proxy in front: every client of the stack reaches the apiserver
// through the meter, and the meter serves the same counters, under the
// same names and labels, at its own /metrics.
//
// Ours: not part of 2014. The proxy adds a loopback hop to each request;
// the apiserver's calls to itself (v0.4's pod reads list the minions
// through its own client) and to the kubelets do not pass through it, and
// are not counted, as ours counts no kubelet calls either.

import (
	"bytes"
	"crypto/tls"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// meterResources are the resources of v0.4's API, the only names the
// meter uses as labels, so that no client can grow its series.
var meterResources = map[string]bool{
	"pods": true, "replicationControllers": true, "services": true, "endpoints": true,
	"minions": true, "bindings": true, "events": true, "operations": true,
}

// maxMeterComponents bounds the client names the meter labels by, as our
// apiserver does; later ones are counted as "other".
const maxMeterComponents = 64

// watchError begins a watch event of type ERROR, as v0.4 encoded it.
var watchError = []byte(`{"type":"ERROR"`)

// Meter is a counting reverse proxy in front of an apiserver; its URL is
// where clients reach the apiserver through it.
type Meter struct {
	*loopbackProxy
	proxy         *httputil.ReverseProxy
	requests      *prometheus.CounterVec
	requestBytes  *prometheus.CounterVec
	responseBytes *prometheus.CounterVec
	watchErrors   *prometheus.CounterVec

	opts MeterOptions

	mu         sync.Mutex
	components map[string]bool
}

// StartMeter listens on a free loopback port and forwards every request to
// target (http://host:port), counting API requests under /api/v1beta1 and
// /api/v1beta2; it answers /metrics itself.
func StartMeter(target string) (*Meter, error) {
	return StartMeterWith(target, MeterOptions{})
}

// MeterOptions let a meter stand in front of another apiserver than ours:
// today's kube-apiserver (pkg/lab/stack/today) is reached over TLS and
// names its resources and clients otherwise.
type MeterOptions struct {
	// Transport reaches target; nil is http.DefaultTransport.
	Transport http.RoundTripper
	// TLS, when set, makes the meter serve https (and HTTP/2, as the
	// apiserver does) under this configuration.
	TLS *tls.Config
	// Classify names a request's verb and resource, or says it is not
	// counted; nil counts v0.4's API (classify).
	Classify func(req *http.Request) (verb, resource string, ok bool)
	// Component names the process that sent a request from its
	// User-Agent, as a bounded label; nil takes its first word, as our
	// apiserver does.
	Component func(userAgent string) string
}

// StartMeterWith starts a meter of target as o says.
func StartMeterWith(target string, o MeterOptions) (*Meter, error) {
	m := &Meter{
		components: map[string]bool{},
		opts:       o,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_total",
			Help: "API requests answered, by verb, resource, HTTP code and client component, as the meter in front of the apiserver saw them.",
		}, []string{"verb", "resource", "code", "component"}),
		requestBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_body_bytes_total",
			Help: "Bytes of request bodies forwarded, by verb, resource and client component.",
		}, []string{"verb", "resource", "component"}),
		responseBytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_response_body_bytes_total",
			Help: "Bytes of response bodies forwarded, watch events as they pass, by verb, resource and client component.",
		}, []string{"verb", "resource", "component"}),
		watchErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_watch_errors_total",
			Help: "Watch streams that carried an ERROR event, by resource and client component.",
		}, []string{"resource", "component"}),
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.requests, m.requestBytes, m.responseBytes, m.watchErrors)
	var err error
	m.loopbackProxy, err = startProxyWith(PartMeter, target, o.Transport, o.TLS, func(proxy *httputil.ReverseProxy) http.Handler {
		m.proxy = proxy
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("/", m.serve)
		return mux
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// serve forwards one request and counts it once it is answered.
func (m *Meter) serve(w http.ResponseWriter, req *http.Request) {
	classifyReq := func(r *http.Request) (string, string, bool) { return classify(r.Method, r.URL.Path) }
	if m.opts.Classify != nil {
		classifyReq = m.opts.Classify
	}
	verb, resource, ok := classifyReq(req)
	if !ok {
		m.proxy.ServeHTTP(w, req)
		return
	}
	component := m.component(req.UserAgent())
	rw := &meterWriter{ResponseWriter: w, code: http.StatusOK, watch: verb == "WATCH"}
	m.proxy.ServeHTTP(rw, req)
	m.requests.WithLabelValues(verb, resource, strconv.Itoa(rw.code), component).Inc()
	// Every client here sends its body with its length.
	if req.ContentLength > 0 {
		m.requestBytes.WithLabelValues(verb, resource, component).Add(float64(req.ContentLength))
	}
	if rw.n > 0 {
		m.responseBytes.WithLabelValues(verb, resource, component).Add(float64(rw.n))
	}
	if rw.sawError {
		m.watchErrors.WithLabelValues(resource, component).Inc()
	}
}

// classify names an API request's verb and resource as our apiserver
// labels them: LIST and GET tell a collection from one object, WATCH is
// any request under watch/. Paths outside the API are not counted.
func classify(method, path string) (verb, resource string, ok bool) {
	rest, found := strings.CutPrefix(path, "/api/v1beta1/")
	if !found {
		if rest, found = strings.CutPrefix(path, "/api/v1beta2/"); !found {
			return "", "", false
		}
	}
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	watch := parts[0] == "watch"
	if watch {
		parts = parts[1:]
	}
	resource = "unknown"
	if len(parts) > 0 && meterResources[parts[0]] {
		resource = parts[0]
	}
	switch {
	case watch:
		verb = "WATCH"
	case method == http.MethodGet && len(parts) < 2:
		verb = "LIST"
	case method == http.MethodGet, method == http.MethodPost, method == http.MethodPut, method == http.MethodDelete:
		verb = method
	default:
		verb = "OTHER"
	}
	return verb, resource, true
}

// component is the first word of a User-Agent, lower-cased, as our
// apiserver labels clients: "controller-manager/v0.4" gives
// "controller-manager"; a word that is empty, long or not of [a-z0-9-],
// and every client past the first 64, gives "other". The v0.4 binaries
// send Go's default User-Agent, "Go-http-client/1.1".
func (m *Meter) component(userAgent string) string {
	// A request without a User-Agent has no first word, and is "other".
	first, _, _ := strings.Cut(strings.TrimSpace(userAgent), " ")
	word, _, _ := strings.Cut(first, "/")
	word = strings.ToLower(word)
	if m.opts.Component != nil {
		word = m.opts.Component(userAgent)
	}
	if word == "" || len(word) > 32 || strings.Trim(word, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" {
		return "other"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.components[word] && len(m.components) >= maxMeterComponents {
		return "other"
	}
	m.components[word] = true
	return word
}

// meterWriter records the code and counts the bytes of a response; on a
// watch it also looks for an ERROR event, keeping the end of each write
// so that one split between two writes is found too.
type meterWriter struct {
	http.ResponseWriter
	code     int
	n        int64
	watch    bool
	tail     []byte
	sawError bool
}

func (w *meterWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *meterWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	if w.watch && !w.sawError {
		keep := len(watchError) - 1
		seam := append(append([]byte(nil), w.tail...), p[:min(n, keep)]...)
		w.sawError = bytes.Contains(seam, watchError) || bytes.Contains(p[:n], watchError)
		if n >= keep {
			w.tail = append(w.tail[:0], p[n-keep:n]...)
		} else {
			w.tail = seam[max(0, len(seam)-keep):]
		}
	}
	return n, err
}

// Unwrap lets the proxy flush the underlying writer.
func (w *meterWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
