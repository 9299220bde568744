// Package faults is the apiserver's fault switch: it fails a chosen fraction
// of requests with a chosen HTTP code, slows requests down, and ends every
// open watch stream on a fixed period. Benchmarks, demos and fault tests use
// it to show how each controller design copes with a flaky apiserver.
//
// Ours: nothing like it existed in 2014. It is configured from flags when
// the apiserver starts and at run time through /admin/faults, which answers
// only requests from loopback.
package faults
