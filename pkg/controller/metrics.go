package controller

// Ours: 2014's controller-manager exported nothing but /healthz. These
// counters let a benchmark or a talk see what the manager asked for; they
// count requests issued, and change no behaviour.

import "github.com/prometheus/client_golang/prometheus"

var (
	syncs = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_syncs_total",
		Help: "Replication controller syncs run (one per controller per pass).",
	})
	podCreates = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_pod_creates_total",
		Help: "Pod creates issued to the apiserver.",
	})
	podCreateErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_pod_create_errors_total",
		Help: "Pod creates that failed.",
	})
	podDeletes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_pod_deletes_total",
		Help: "Pod deletes issued to the apiserver.",
	})
	podDeleteErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_pod_delete_errors_total",
		Help: "Pod deletes that failed.",
	})
	syncErrors = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_sync_errors_total",
		Help: "Syncs that returned an error (a failed pod list, in 2014).",
	})
)

// RegisterMetrics adds the manager's counters to r.
func RegisterMetrics(r prometheus.Registerer) {
	r.MustRegister(syncs, podCreates, podCreateErrors, podDeletes, podDeleteErrors, syncErrors)
}
