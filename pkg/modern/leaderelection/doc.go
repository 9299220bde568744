// Package leaderelection runs the controller-manager's leader election as
// both modern managers take part in it, ours (cmd/controller-manager
// -tags modern) and upstream's (cmd/controller-manager-upstream): client-go's
// tools/leaderelection on the Endpoints lock of package resourcelock,
// named kube-controller-manager, the controllers running only while the
// process leads (history: leader-election). Only modern code imports it.
//
// Ours: not part of 2014, in which two managers both acted.
package leaderelection
