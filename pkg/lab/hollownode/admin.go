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
func (h *Cluster) AdminHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !IsLoopback(r) {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "the admin endpoint answers loopback callers only"})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, 4096)
		path := strings.TrimSuffix(r.URL.Path, "/")
		var err error
		switch {
		case path == "/admin" && r.Method == http.MethodGet:
			writeJSON(w, http.StatusOK, h.State())
			return
		case path == "/admin/failFraction" && r.Method == http.MethodPut:
			var body struct{ Value *float64 }
			if err = decode(r, &body); err == nil {
				if body.Value == nil {
					err = fmt.Errorf("body must be {\"value\": <0..1>}")
				} else {
					err = h.SetFailFraction(*body.Value)
				}
			}
		case path == "/admin/churn" && r.Method == http.MethodPut:
			var body struct{ PerSecond *float64 }
			if err = decode(r, &body); err == nil {
				if body.PerSecond == nil {
					err = fmt.Errorf("body must be {\"perSecond\": <rate>}")
				} else {
					err = h.SetChurn(*body.PerSecond)
				}
			}
		case strings.HasPrefix(path, "/admin/nodes/") && r.Method == http.MethodPost:
			parts := strings.Split(strings.TrimPrefix(path, "/admin/nodes/"), "/")
			if len(parts) != 2 {
				err = fmt.Errorf("use /admin/nodes/<name>/fail or /admin/nodes/<name>/recover")
			} else if parts[1] == "fail" {
				err = h.FailNode(api.NewDefaultContext(), parts[0])
			} else if parts[1] == "recover" {
				err = h.RecoverNode(parts[0])
			} else {
				err = fmt.Errorf("unknown node action %q", parts[1])
			}
		default:
			writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no admin action %s %s", r.Method, r.URL.Path)})
			return
		}
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, h.State())
	})
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
