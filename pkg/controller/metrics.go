package controller

// Ours: 2014's controller-manager exported nothing but /healthz. These
// counters let a benchmark, a talk or a test see what the manager asked
// for and why; they count requests issued and syncs run, and change no
// behaviour.

import "github.com/prometheus/client_golang/prometheus"

// Why a sync ran, as the cause label of replication_manager_syncs_total
// names it. The 2014 manager has two causes, today's five.
const (
	// SyncWatch is an event on the 2014 manager's watch of controllers.
	SyncWatch = "watch"
	// SyncTick is the 2014 manager's periodic pass over every controller.
	SyncTick = "tick"
	// SyncController is a notification of today's controller informer
	// that carries a new resourceVersion: a controller added, changed or
	// deleted.
	SyncController = "controller"
	// SyncPod is a notification of today's pod informer.
	SyncPod = "pod"
	// SyncResync is a controller the informer handed over again unchanged
	// (same resourceVersion): its periodic resync, or a relist that found
	// nothing new.
	SyncResync = "resync"
	// SyncRetry is a failed sync put back on the queue.
	SyncRetry = "retry"
	// SyncLater is a sync a controller asked for later (minReadySeconds).
	SyncLater = "later"
)

var (
	syncs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "replication_manager_syncs_total",
		Help: "Replication controller syncs run (one per controller per pass), by what started them (cause).",
	}, []string{"cause"})
	ticks = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "replication_manager_ticks_total",
		Help: "Periodic passes over every controller begun (the 2014 manager's synchronize; today's manager has none).",
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

// RegisterMetrics adds the manager's counters to r. Every cause of this
// build's syncs is exported from the start, at 0, so that a reader can
// tell a cause that never came from a manager that does not report it.
func RegisterMetrics(r prometheus.Registerer) {
	for _, cause := range syncCauses {
		syncs.WithLabelValues(cause)
	}
	r.MustRegister(syncs, ticks, podCreates, podCreateErrors, podDeletes, podDeleteErrors, syncErrors)
}
