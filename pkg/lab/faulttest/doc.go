// Package faulttest strikes real clusters (apiserver, hollow nodes and
// controller-manager processes on loopback) with one fault each during a
// scale-up, and checks that they end in exactly the state asked for. The
// tests run under both builds; with -tags modern they drive the modern
// controller-manager and also check that not one pod was created beyond
// the replicas. The tests run side by side: each starts a cluster of its
// own and mostly waits for it.
//
// Ours: not part of 2014.
package faulttest
