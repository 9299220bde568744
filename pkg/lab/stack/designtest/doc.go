// Package designtest knows which controller-manager design the test
// binary was built for (-tags modern or not) and starts stacks of it.
// Only the tests that import it, directly or through what they import,
// build differently with the tag, and so only they run a second time in
// make test's modern build (.ci/modern-packages): a test that names the
// binaries it drives (a variant, today's binaries, the originals) tests
// the same code in both builds and runs once.
package designtest

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// Start starts a stack of this test binary's design (stacktest.Start),
// unless cfg names another.
func Start(tb testing.TB, cfg stack.Config) *stack.Stack {
	tb.Helper()
	if cfg.Design == "" {
		cfg.Design = Design
	}
	return stacktest.Start(tb, cfg)
}
