package hollownode

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/prometheus/client_golang/prometheus"
)

// IsLoopback reports whether a request's remote address is a loopback one.
func IsLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// AdminHandler serves the hollow nodes' controls, to loopback callers only:
//
//	GET  /admin                      current settings and counts (JSON)
//	PUT  /admin/failFraction         {"value": 0.1}
//	PUT  /admin/churn                {"perSecond": 5}
//	POST /admin/nodes/<name>/fail    fail a node and its pods
//	POST /admin/nodes/<name>/recover let a failed node take pods again
//
// Every answer is JSON: the state after the action, or {"error": ...}.
func (h *Cluster) AdminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /admin", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, h.State())
	})
	mux.HandleFunc("PUT /admin/failFraction", h.act(func(r *http.Request) error {
		var body struct{ Value *float64 }
		if err := decode(r, &body); err != nil {
			return err
		}
		if body.Value == nil {
			return fmt.Errorf("body must be {\"value\": <0..1>}")
		}
		return h.SetFailFraction(*body.Value)
	}))
	mux.HandleFunc("PUT /admin/churn", h.act(func(r *http.Request) error {
		var body struct{ PerSecond *float64 }
		if err := decode(r, &body); err != nil {
			return err
		}
		if body.PerSecond == nil {
			return fmt.Errorf("body must be {\"perSecond\": <rate>}")
		}
		return h.SetChurn(*body.PerSecond)
	}))
	mux.HandleFunc("POST /admin/nodes/{name}/fail", h.act(func(r *http.Request) error {
		return h.FailNode(api.NewDefaultContext(), r.PathValue("name"))
	}))
	mux.HandleFunc("POST /admin/nodes/{name}/recover", h.act(func(r *http.Request) error {
		return h.RecoverNode(r.PathValue("name"))
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !IsLoopback(r) {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "the admin endpoint answers loopback callers only"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 4096)
		// A trailing slash names the same action.
		if len(r.URL.Path) > 1 {
			r.URL.Path = strings.TrimSuffix(r.URL.Path, "/")
		}
		// The mux's own 404 and 405 are plain text: every answer here is
		// JSON.
		if _, pattern := mux.Handler(r); pattern == "" {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no admin action %s %s", r.Method, r.URL.Path)})
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// act serves an admin action: 400 with its error, or the state after it.
func (h *Cluster) act(do func(r *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := do(r); err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, h.State())
	}
}

func decode(r *http.Request, into interface{}) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return fmt.Errorf("malformed JSON body: %v", err)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, code int, v interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// Collector exports the hollow nodes' counts as Prometheus metrics.
func (h *Cluster) Collector() prometheus.Collector {
	return statsCollector{h}
}

type statsCollector struct{ h *Cluster }

var (
	descPods     = prometheus.NewDesc("hollow_node_pods", "Pods the hollow nodes know of.", nil, nil)
	descActions  = prometheus.NewDesc("hollow_node_actions_total", "Writes the hollow nodes made, by action.", []string{"action"}, nil)
	descRelists  = prometheus.NewDesc("hollow_node_relists_total", "Times the hollow nodes listed all pods (start and after a broken watch).", nil, nil)
	descExpired  = prometheus.NewDesc("hollow_node_watch_expired_total", "Pod watches that ended with a 410: they had fallen out of etcd's window of 1000 events.", nil, nil)
	descWriteErr = prometheus.NewDesc("hollow_node_write_errors_total", "Writes that failed for a reason other than a conflict.", nil, nil)
	descQueue    = prometheus.NewDesc("hollow_node_queue_depth", "Work waiting: watch events read but not applied (queue=events), pods waiting for a worker to bind or start them (queue=work).", []string{"queue"}, nil)
	descLag      = prometheus.NewDesc("hollow_node_watch_lag", "etcd indexes between the hollow nodes' last write and the last event of their pod watch (at 1000 the watch falls out of etcd's window).", nil, nil)
	descMaxLag   = prometheus.NewDesc("hollow_node_watch_lag_max", "The largest hollow_node_watch_lag so far.", nil, nil)
)

func (c statsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- descPods
	ch <- descActions
	ch <- descRelists
	ch <- descExpired
	ch <- descWriteErr
	ch <- descQueue
	ch <- descLag
	ch <- descMaxLag
}

func (c statsCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.h.State()
	ch <- prometheus.MustNewConstMetric(descPods, prometheus.GaugeValue, float64(s.Pods))
	for action, n := range map[string]int64{"bind": s.Stats.Binds, "start": s.Stats.Starts, "fail": s.Stats.Failures, "churn_delete": s.Stats.ChurnDeletes} {
		ch <- prometheus.MustNewConstMetric(descActions, prometheus.CounterValue, float64(n), action)
	}
	ch <- prometheus.MustNewConstMetric(descRelists, prometheus.CounterValue, float64(s.Stats.Relists))
	ch <- prometheus.MustNewConstMetric(descExpired, prometheus.CounterValue, float64(s.Stats.Expired))
	ch <- prometheus.MustNewConstMetric(descWriteErr, prometheus.CounterValue, float64(s.Stats.WriteErrors))
	ch <- prometheus.MustNewConstMetric(descQueue, prometheus.GaugeValue, float64(s.Events), "events")
	ch <- prometheus.MustNewConstMetric(descQueue, prometheus.GaugeValue, float64(s.Queued), "work")
	ch <- prometheus.MustNewConstMetric(descLag, prometheus.GaugeValue, float64(s.WatchLag))
	ch <- prometheus.MustNewConstMetric(descMaxLag, prometheus.GaugeValue, float64(s.MaxWatchLag))
}
