// Package stack starts a whole kube-rewind control plane as separate
// processes on loopback — apiserver with its embedded etcd, hollow nodes,
// one or more controller-managers — and stops exactly what it started.
// make run, the end-to-end tests, the benchmark and talk mode all start
// their clusters through it, so every one of them is the same cluster.
// The apiserver embeds etcd unless the stack is given external members;
// every process starts with the open-file limit raised (limits.go). The
// designs legacy-original and stack-original run the original v0.4
// binaries of make original instead of ours (original.go), the second
// behind a counting proxy (meter.go). Today's real control plane is
// started by the sub-package today. Both stacks start their processes
// through one Supervisor (supervisor.go): each with its log, waited for
// until it is healthy, started again when it must stay up and exits by
// itself; and both embed one ManagerSet (managers.go), through which a
// scenario kills and restarts a controller manager of either.
//
// Ours: 2014 had hack/local-up-cluster.sh for this.
package stack
