package e2e

// The semantic differences between the 2014 design and today's, one test
// each, after encoding/json's v2_diff_test.go: each runs real processes in
// both builds (go test ./pkg/lab/e2e and go test -tags modern ./pkg/lab/e2e) and
// asserts the outcome its own build must show. Each runs the scenario of
// the same name from pkg/lab/scenario/scripts — the one make bench measures and make
// demo shows — at a test size, and checks the scenario's Expect.

import "testing"

// TestWhatTwoManagersDoToOneController runs two controller-managers against
// one controller of N (scenario two-managers).
//
// In 2014 both managers see the same deficit and both create it: more than
// N creates, more than N pods for a while, then both delete the surplus.
// Modern managers elect a leader through a lock record on an Endpoints
// object; the follower does nothing: exactly N creates, exactly N pods.
// Why: high availability was added by running several managers, and without
// a lock they fought over every controller.
// Related: (history: leader-election).
func TestWhatTwoManagersDoToOneController(t *testing.T) {
	t.Parallel()
	runScenario(t, "two-managers")
}

// TestHowManyGoroutinesAScaleUpTakes scales a controller from 0 to 1 000
// and samples the controller-manager's goroutine count (scenario
// scale-up).
//
// In 2014 the manager starts one goroutine per missing pod, all at once:
// the peak follows N (and each request in flight holds connection
// goroutines too).
// Modern creates at most burstReplicas (500) per sync, in slow-start
// batches of 1, 2, 4, … 245, so the peak stays under 500 plus a constant
// however large N is. (The client's rate limit is off here, as in the
// benchmark's second series, so that the limit is the design's.)
// Why: 1 000 goroutines meant 1 000 concurrent requests against the
// apiserver.
// Related: (history: burst-cap, slow-start).
func TestHowManyGoroutinesAScaleUpTakes(t *testing.T) {
	t.Parallel()
	runScenario(t, "scale-up")
}

// TestWhatAnIdleClusterCosts leaves converged controllers alone for a
// while, with the 2014 sync period shortened to 2 s, and counts the
// controller-manager's requests (scenario idle).
//
// In 2014 every tick lists all controllers and each controller's pods, and
// every endpoints pass lists the services, changed or not.
// Modern informers keep caches current over watches; syncs read the caches
// and a status that did not change is not written, so the controllers send
// about no request; the manager's leader election still renews its lease
// every 2 s, about 30 requests a minute, and is counted apart.
// Why: the LISTs of idle managers were a large share of apiserver load.
// Related: (history: pod-informer, endpoints-informer).
func TestWhatAnIdleClusterCosts(t *testing.T) {
	t.Parallel()
	runScenario(t, "idle")
}

// TestAnIdleClusterWhosePodsCameFirst runs idle as a sweep does: the
// benchmark creates the controllers and the pods their manager would have
// made, and starts the manager only once they run. The manager must find
// nothing to create or delete (the step fails if it does), and the quiet
// window must show the same outcome as when the manager made the pods.
func TestAnIdleClusterWhosePodsCameFirst(t *testing.T) {
	t.Parallel()
	sz := testSizes["idle"]
	sz.PodsFirst = true
	runScenarioAt(t, "idle", sz)
}

// TestWhatAManagerDoesWhilePodCreatesFail makes every pod POST fail with a
// 500 for a while, then lets them through (scenario api-errors).
//
// In 2014 every tick sends all N creates again, however often they fail:
// N requests per period for as long as the fault lasts.
// Modern slow start sends one create per sync and stops at the failure,
// and the failed sync comes back after 5 ms, 10 ms, 20 ms, … per
// controller: few requests, at growing intervals. Both create the pods
// once the fault clears (the modern one at its next retry).
// Why: controllers refused by quota or a sick apiserver hammered it with
// doomed requests.
// Related: (history: rate-limited-requeue, slow-start).
func TestWhatAManagerDoesWhilePodCreatesFail(t *testing.T) {
	t.Parallel()
	runScenario(t, "api-errors")
}
