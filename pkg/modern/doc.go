// Package modern holds what the modern build (-tags modern) adds beside the
// 2014 stack: the pieces today's controllers stand on that v0.4 had no
// counterpart for. Its sub-packages:
//
//	conversion    the 2014 objects to and from k8s.io/api/core/v1
//	informers     client-go shared informers fed by our 2014 client
//	resourcelock  the leader-election lock, stored through the apiserver
//	leaderelection  the election both modern managers take part in
//	queuemetrics  the workqueue's metrics on the controller-manager's /metrics
//
// The controllers' own modern code stays beside the 2014 code it replaces,
// in the _modern.go files of pkg/controller and pkg/service. Only modern code
// imports these packages; the legacy build never links them.
//
// Ours: not part of 2014.
package modern
