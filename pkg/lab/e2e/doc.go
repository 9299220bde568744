// Package e2e holds the end-to-end tests: real apiserver, hollow nodes and
// controller-manager processes on loopback, driven through the Go client.
// They run under both builds; with -tags modern they drive the modern
// controller-manager.
//
// Ours: 2014 had cmd/integration, one program running everything in-process.
package e2e
