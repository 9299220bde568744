// Package sampler measures a running cluster over time: pods by state (from
// a pod watch), apiserver requests by verb, resource, code and component
// (from its /metrics), every request of the controller-manager processes
// by verb and by purpose (syncs, status writes, leader election, events),
// each controller-manager's goroutines, memory, CPU and open connections
// (from its /metrics and /proc), the apiserver's and the hollow-node
// process's CPU and memory, and the measuring process's own CPU. Every
// series names the process it measures. The benchmark turns the samples
// into reports; talk mode streams them to a live page.
//
// Ours: not part of 2014.
package sampler
