//go:build modern

package controller

// Ours: counters only the modern build has, registered by the
// ReplicationManager's RegisterMetrics together with the expectations
// gauge. The legacy manager writes no status, so it has no such counter.

import "github.com/prometheus/client_golang/prometheus"

var statusWrites = prometheus.NewCounter(prometheus.CounterOpts{
	Name: "replication_manager_status_writes_total",
	Help: "Replication controller status writes issued (PUTs; retries included).",
})
