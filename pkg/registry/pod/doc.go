// Package pod defines the storage interface of pods and their REST storage:
// create assigns an id and manifest UUID and queues the pod for scheduling,
// list and watch select by labels and by the fields ID,
// DesiredState.Host and DesiredState.Status; get and list compute each
// pod's status on the way out, listing the minions once per bound pod, as
// v0.4 did.
//
// Follows kubernetes/kubernetes pkg/registry/pod as of v0.4 (October 2014).
package pod
