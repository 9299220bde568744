// Package sweep is rcbench bench -sweep: it runs scale-up and idle over a
// range of cluster sizes, from 100 to 100 000 pods, for the 2014 design and
// today's (without its client throttle, which would only add N/20 s to
// every scale-up), and for the whole stacks, v0.4's own binaries at the
// fair fight's parity and today's control plane unthrottled, scale-up
// only; it draws each cost against the size. Each run is bounded by a
// limit that grows with its pods and the whole by a budget; the designs'
// largest scale-up, the headline, runs first, a variant's larger sizes
// are not run once it breaks, and -etcd3 adds a size on a three-member
// external etcd cluster. Its page is the benchmark's,
// with the sweep's section (pkg/lab/bench/report, sweep.go).
//
// Ours: not part of 2014.
package sweep
