package apiserver

// Ours: v0.4 exported no metrics. The benchmark counts the
// controller-manager's requests by verb from these, so each request is
// counted exactly once, after its response, with labels from small fixed
// sets.

import (
	"strconv"
	"sync"
	"time"

	"github.com/golang/glog"
	"github.com/prometheus/client_golang/prometheus"
)

// The verb labels. GET reads one object and LIST a collection, so the two
// kinds of read can be told apart.
const (
	verbList   = "LIST"
	verbGet    = "GET"
	verbPost   = "POST"
	verbPut    = "PUT"
	verbDelete = "DELETE"
	verbWatch  = "WATCH"
	verbOther  = "OTHER"
)

// Resource labels for requests that name no served resource; the name the
// client sent is never used as a label, so clients cannot grow the series.
const (
	resourceUnknown    = "unknown"
	resourceOperations = "operations"
)

// componentOther labels clients whose User-Agent gives no usable name, and
// every client beyond maxComponents.
const (
	componentOther = "other"
	maxComponents  = 64
)

type metrics struct {
	requests     *prometheus.CounterVec
	duration     *prometheus.HistogramVec
	inflight     prometheus.Gauge
	watchStreams *prometheus.GaugeVec
	watchEvents  *prometheus.CounterVec
	watchErrors  *prometheus.CounterVec
	// requestBytes and responseBytes are body bytes read and written.
	requestBytes  *prometheus.CounterVec
	responseBytes *prometheus.CounterVec

	// components holds the client names seen so far, at most maxComponents.
	mu         sync.RWMutex
	components map[string]bool
}

func newMetrics(reg prometheus.Registerer) *metrics {
	return &metrics{
		requests: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_total",
			Help: "API requests answered, by verb (LIST, GET, POST, PUT, DELETE, WATCH), resource, HTTP code and client component (first word of the User-Agent).",
		}, []string{"verb", "resource", "code", "component"})),
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "apiserver_request_duration_seconds",
			Help:    "Time to answer an API request, by verb and resource; watch streams are not included.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"verb", "resource"})),
		inflight: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "apiserver_inflight_requests",
			Help: "API requests being served now, watch streams excluded.",
		})),
		watchStreams: register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "apiserver_watch_streams",
			Help: "Watch streams open now, by resource.",
		}, []string{"resource"})),
		watchEvents: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_watch_events_total",
			Help: "Watch events written to clients, by resource.",
		}, []string{"resource"})),
		watchErrors: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_watch_errors_total",
			Help: "Watch streams ended by an ERROR event, by resource and client component; most are 410 Gone, a watch from a version etcd's event window no longer holds.",
		}, []string{"resource", "component"})),
		requestBytes: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_request_body_bytes_total",
			Help: "Bytes of request bodies read by the API handlers, by verb, resource and client component; headers not included.",
		}, []string{"verb", "resource", "component"})),
		responseBytes: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "apiserver_response_body_bytes_total",
			Help: "Bytes of response bodies written, watch events as they are sent, by verb, resource and client component; headers not included.",
		}, []string{"verb", "resource", "component"})),
		components: map[string]bool{},
	}
}

// bytes records the body bytes of one answered request.
func (m *metrics) bytes(verb, resource, userAgent string, read, written int64) {
	component := m.component(userAgent)
	if read > 0 {
		m.requestBytes.WithLabelValues(verb, resource, component).Add(float64(read))
	}
	if written > 0 {
		m.responseBytes.WithLabelValues(verb, resource, component).Add(float64(written))
	}
}

// streamed records bytes of a watch stream as they are written.
func (m *metrics) streamed(verb, resource, userAgent string, n int) {
	if n > 0 {
		m.responseBytes.WithLabelValues(verb, resource, m.component(userAgent)).Add(float64(n))
	}
}

// register adds c to reg, or returns the collector already registered
// under the same name, so that two handlers may share one registry.
func register[T prometheus.Collector](reg prometheus.Registerer, c T) T {
	if err := reg.Register(c); err != nil {
		if already, ok := err.(prometheus.AlreadyRegisteredError); ok {
			if existing, ok := already.ExistingCollector.(T); ok {
				return existing
			}
		}
		glog.Errorf("registering a metric: %v", err)
	}
	return c
}

// observe records one answered request.
func (m *metrics) observe(verb, resource string, code int, userAgent string, start time.Time, timed bool) {
	m.requests.WithLabelValues(verb, resource, strconv.Itoa(code), m.component(userAgent)).Inc()
	if timed {
		m.duration.WithLabelValues(verb, resource).Observe(time.Since(start).Seconds())
	}
}

// component returns the client label for a User-Agent: its first word up
// to a slash or space, lower-cased, if that is 1 to 32 of [a-z0-9-]; else
// "other". "controller-manager/v0.4 (linux/amd64)" gives
// "controller-manager".
func (m *metrics) component(userAgent string) string {
	name := componentName(userAgent)
	if name == componentOther {
		return name
	}
	m.mu.RLock()
	seen := m.components[name]
	m.mu.RUnlock()
	if seen {
		return name
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.components[name] {
		return name
	}
	if len(m.components) >= maxComponents {
		return componentOther
	}
	m.components[name] = true
	return name
}

func componentName(userAgent string) string {
	end := len(userAgent)
	for i := 0; i < len(userAgent); i++ {
		if c := userAgent[i]; c == '/' || c == ' ' || c == '\t' {
			end = i
			break
		}
	}
	word := userAgent[:end]
	if len(word) == 0 || len(word) > 32 {
		return componentOther
	}
	lower := true
	for i := 0; i < len(word); i++ {
		c := word[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case c >= 'A' && c <= 'Z':
			lower = false
		default:
			return componentOther
		}
	}
	if lower {
		return word
	}
	out := []byte(word)
	for i, c := range out {
		if c >= 'A' && c <= 'Z' {
			out[i] = c + 'a' - 'A'
		}
	}
	return string(out)
}

// methodVerb is the verb label before routing refines it.
func methodVerb(method string) string {
	switch method {
	case "GET":
		return verbGet
	case "POST":
		return verbPost
	case "PUT":
		return verbPut
	case "DELETE":
		return verbDelete
	default:
		return verbOther
	}
}
