// Package controller holds the ReplicationManager, the loop that keeps the
// number of pods matching each replication controller equal to its desired
// replicas.
//
// The default build is the manager of Kubernetes v0.4 (October 2014): a
// direct watch on replication controllers plus a 10-second synchronize tick,
// a LIST of pods from the apiserver on every sync, and one goroutine per pod
// to create or delete, with no bound and no memory of what it already asked
// for. Built with -tags modern it is today's design instead: shared
// informers, a rate-limited workqueue, expectations, ControllerRef, slow-start
// batches and a burst cap.
//
// The 2014 manager is two files: replication_controller.go (the watch, the
// tick, the sync) and pod_control.go (a create or delete per call), which
// upstream kept in the one file. Today's design is split by concern into the _modern.go files:
// replication_controller_modern.go (informers, workqueue, workers),
// replication_handlers_modern.go (what each pod or controller event
// enqueues), replication_manage_modern.go (slow start, burst cap, ranked
// deletion), replication_status_modern.go (status writes),
// expectations_modern.go, controller_ref_manager_modern.go (adopt and
// release), controller_utils_modern.go (active pods and their ranking) and
// pod_control_modern.go, sync_causes_modern.go (why each key was queued),
// and metrics_modern.go for the counters only it has. garbage_collector_modern.go stands in for the pod side of today's
// garbage collector, which deletes the pods of a deleted controller.
// metrics.go, untagged, is what both builds share.
package controller
