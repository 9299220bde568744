// Package hollownode stands in for the 2014 scheduler and kubelets, so the
// control loop has something to drive (after Kubemark's hollow nodes and
// KWOK). One pod watch, read by a goroutine that only buffers its events
// (watch.go), and a workqueue of binds and another of starts, each with
// writers of its own (work.go): two writes per pod. It counts its
// relists, its work waiting and how far its watch runs behind its own
// writes, for the benchmark to report.
//
// Ours: it registers N minions, binds each unscheduled pod to the minion
// with the fewest pods, and after a delay writes the pod Running with a
// host, host IP, pod IP and Ready condition. In 2014 the apiserver filled
// these in on each read from the kubelets and the cloud provider, and
// Ready did not exist. On request it fails pods or a node, or deletes pods
// at a steady rate. For the original v0.4 apiserver, which asked the
// kubelets instead and refused status writes, it answers their /podInfo
// instead of writing (kubelet.go).
package hollownode
