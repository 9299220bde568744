//go:build modern

package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// requireUpstream, when set, makes a missing controller-manager-upstream a
// failure instead of a skip: CI builds it, and must not pass without it.
const requireUpstream = "KUBE_REWIND_REQUIRE_UPSTREAM"

// upstreamScenarios are the scenarios today's upstream replication manager
// must converge in to the exact counts our modern port does: creates
// without a duplicate, one leader of two, replacements under churn, and
// two controllers over one selector, and the pods of a deleted controller
// collected.
var upstreamScenarios = []string{"scale-up", "two-managers", "churn", "overlap", "recreate"}

// TestUpstreamsManagerConvergesAsOurPortDoes runs k8s.io/kubernetes's own
// replication manager (controller-manager-upstream, make upstream) through
// the scenarios above at their test sizes, and checks each against what
// the modern design must show. Modern build only: it checks the modern
// port's expectations, and once is enough.
func TestUpstreamsManagerConvergesAsOurPortDoes(t *testing.T) {
	t.Parallel()
	dir := stacktest.BinDir(t)
	bin := scenario.UpstreamUnthrottled.Binary()
	if _, err := os.Stat(filepath.Join(dir, bin)); err != nil {
		if os.Getenv(requireUpstream) != "" {
			t.Fatalf("%s is not in %s, and %s is set: make upstream builds it", bin, dir, requireUpstream)
		}
		t.Skipf("%s is not in %s: make upstream builds it (with %s set, its absence fails)", bin, dir, requireUpstream)
	}
	for _, name := range upstreamScenarios {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc, err := scripts.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			// Unthrottled, as this build's other scenario tests run
			// today's manager: the throttle is the benchmark's business.
			v := scenario.UpstreamUnthrottled
			results := runVariant(t, name, v, false)
			t.Logf("%s: %v", v.Name, results)
			if err := sc.Script.Expect(v, variantSize(name), results); err != nil {
				t.Error(err)
			}
		})
	}
}
