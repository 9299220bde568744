// Package resourcelock stores a client-go leader election record in an
// annotation of an Endpoints object, through our 2014 client, so that the
// modern controller-manager can run client-go's tools/leaderelection
// unchanged. Only modern code imports it.
//
// Follows the Endpoints lock of client-go's
// tools/leaderelection/resourcelock (endpointslock.go), the form leader
// election took when kube-controller-manager gained --leader-elect in 2016
// (history: leader-election); client-go has since removed it in
// favour of Lease objects, which the 2014 API does not have.
package resourcelock
