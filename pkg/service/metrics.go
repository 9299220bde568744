package service

// Ours: 2014 exported no metrics. These count what the endpoints controller
// asks of the apiserver, for benchmarks and talks; they change nothing.

import "github.com/prometheus/client_golang/prometheus"

var (
	passes = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "endpoints_controller_syncs_total",
		Help: "Endpoints syncs run (one per service per pass).",
	})
	writes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "endpoints_controller_writes_total",
		Help: "Endpoints objects created or updated.",
	}, []string{"verb"})
	errorsTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "endpoints_controller_errors_total",
		Help: "Failed requests while syncing endpoints.",
	})
)

// RegisterMetrics adds the endpoints controller's counters to r.
func RegisterMetrics(r prometheus.Registerer) {
	r.MustRegister(passes, writes, errorsTotal)
}
