// Package sampler measures a running cluster over time: pods by state (from
// a pod watch), apiserver requests by verb, resource, code and component
// (from its /metrics), and each controller-manager's goroutines, memory,
// CPU and open connections (from its /metrics and /proc). The benchmark
// turns the samples into reports; talk mode streams them to a live page.
//
// Ours: not part of 2014.
package sampler
