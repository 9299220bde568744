// Package hollownode stands in for the 2014 scheduler and kubelets, so the
// control loop has something to drive. It is not part of 2014 and does not
// pretend to be.
//
// Ours: it registers N minions, binds every unscheduled pod to the minion
// with the fewest pods (the scheduler's one write), and after a start delay
// marks the pod Running with a host, a host IP, a unique pod IP and a Ready
// condition, written here directly. In 2014 the apiserver filled these in
// on each read: the status and pod IP from what the kubelets reported, the
// host IP from the cloud provider; Ready did not exist. On request it fails
// a fraction of pods, fails a whole node, or deletes pods at a steady rate.
// It follows pods with one watch and a delaying workqueue, so 10 000 pods
// cost it two writes each and nothing more. The idea is Kubemark's hollow
// nodes and KWOK's simulated lifecycles, reduced to what a
// ReplicationManager can observe.
package hollownode
