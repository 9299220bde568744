// Package stacktest helps tests start real clusters: it finds the binaries
// (from make build, via $KUBE_REWIND_BIN) or builds them once, and it knows
// which design the test binary itself was built for, so a test run with
// -tags modern drives the modern controller-manager.
package stacktest
