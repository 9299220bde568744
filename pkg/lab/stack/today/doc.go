// Package today starts today's whole control plane as processes on
// loopback, from the real upstream binaries make today builds into
// _output/today, unmodified: an etcd member (etcd v3.5.35, pkg/etcd's, in
// a process of its own), kube-apiserver, kube-controller-manager (one or
// more, electing a leader) and kube-scheduler from k8s.io/kubernetes
// v1.37.2, the release of our client-go, and KWOK (sigs.k8s.io/kwok),
// which plays the nodes and the pods' lifecycle. It is the other side of
// the comparison "stack against stack", beside package stack's 2014
// cluster, and like it stops exactly what it started: every component is
// a stack.Process, a child of the caller, with its own health and metrics
// addresses (Components), so each can be killed, restarted and measured
// on its own.
//
// A run's certificates, service-account keys, tokens and kubeconfigs are
// generated into its scratch directory (pki.go); nothing of upstream is
// in this repository.
//
// Where it departs from a real cluster, each said where it is done:
//   - everything listens on 127.0.0.1 and the apiserver advertises it, so
//     its endpoint reconciler is off (components.go, startAPIServer);
//   - clients authenticate with static bearer tokens, authorization is
//     RBAC alone, and KWOK is in system:masters (pki.go, clients);
//   - there are no kubelets and no containers: KWOK's stages make a bound
//     pod Running at once and delete a pod being deleted (startKWOK);
//   - kube-controller-manager runs only the controllers the scenarios need
//     (components.go, Controllers), and it and the scheduler answer
//     /metrics without a token (scrapeable);
//   - no kubelet runs them as static pods: the stack itself starts a
//     manager or the scheduler again when it exits by itself, as each
//     does on losing its leader election (package stack's Supervisor,
//     which starts and keeps the processes of both stacks).
//
// Ours: 2014 had no such thing; kube-up and kind start today's clusters
// with containers, which this machine-sized laboratory does without.
package today
