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
// batches and a burst cap. Files that differ come in pairs
// (replication_controller.go / replication_controller_modern.go); what both
// builds share is untagged.
package controller
