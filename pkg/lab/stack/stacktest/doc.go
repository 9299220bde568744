// Package stacktest helps tests start real clusters: it finds the binaries
// (from make build, via $KUBE_REWIND_BIN) or builds them once, and starts
// a stack of the design a test names. It compiles the same in both
// builds; which design the test binary itself was built for is
// designtest's, so that only the tests that drive that design run twice.
package stacktest
