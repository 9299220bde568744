// Package adapter lets today's upstream controllers talk to our v1beta1
// apiserver: a k8s.io/client-go kubernetes.Interface whose pod,
// replication controller and event calls cross pkg/modern/conversion to
// our 2014 client (pkg/client). It is laboratory, never the subject: it
// exists so that controller-manager-upstream can run k8s.io/kubernetes's
// own ReplicationManager, unmodified, beside our annotated port.
//
// Ours: not part of 2014, nor of upstream. Everything a v1 apiserver does
// that ours cannot is marked Ours: in adapter.go, with its consequence.
package adapter
