//go:build modern

package controller

// Ours: counters only the modern build has, registered by the
// ReplicationManager's RegisterMetrics together with the expectations
// gauge. The legacy manager writes no status, so it has no such counter;
// its syncs of the two causes never run at once, so its syncs by cause
// say what its creates were for, where today's workers run syncs of any
// causes side by side and count the creates by the cause of theirs.

import "github.com/prometheus/client_golang/prometheus"

var (
	statusWrites = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_status_writes_total",
		Help: "Replication controller status writes issued (PUTs; retries included).",
	})
	syncCreates = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "replication_manager_sync_pod_creates_total",
		Help: "Pod creates issued by syncs, by what started the sync (cause, as in replication_manager_syncs_total).",
	}, []string{"cause"})
)
