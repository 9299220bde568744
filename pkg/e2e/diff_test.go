package e2e

// The semantic differences between the 2014 design and today's, one test
// each, after encoding/json's v2_diff_test.go: each runs real processes in
// both builds (go test ./pkg/e2e and go test -tags modern ./pkg/e2e) and
// asserts the outcome its own build must show. Counts come from the
// apiserver's and the controller-manager's /metrics.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver/faults"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/stack"
	"github.com/kube-rewind/kube-rewind/pkg/stack/stacktest"
)

const modern = stacktest.Design == "modern"

// managerRequests returns the requests the controller-managers sent, from
// the apiserver's metrics, restricted to the given labels (verb,
// resource).
func managerRequests(t *testing.T, st *stack.Stack, match map[string]string) float64 {
	t.Helper()
	m, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		t.Fatalf("reading the apiserver's metrics: %v", err)
	}
	labels := map[string]string{"component": "controller-manager"}
	for k, v := range match {
		labels[k] = v
	}
	return m.Sum("apiserver_request_total", labels)
}

func podPosts(t *testing.T, st *stack.Stack) float64 {
	return managerRequests(t, st, map[string]string{"verb": "POST", "resource": "pods"})
}

// setFaults replaces the apiserver's fault rules.
func setFaults(t *testing.T, st *stack.Stack, cfg faults.Config) {
	t.Helper()
	body, _ := json.Marshal(cfg)
	req, _ := http.NewRequest(http.MethodPut, st.APIURL+"/admin/faults", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("setting faults: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("setting faults: %s", resp.Status)
	}
}

func newClient(st *stack.Stack) client.Interface {
	return client.NewOrDie(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "e2e"})
}

// resize sets a controller's replicas, retrying when a status write of the
// modern manager got in between its read and its write.
func resize(t *testing.T, c client.Interface, id string, replicas int) {
	t.Helper()
	ctx := api.NewDefaultContext()
	for attempt := 0; ; attempt++ {
		rc, err := c.GetReplicationController(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rc.DesiredState.Replicas = replicas
		_, err = c.UpdateReplicationController(ctx, rc)
		if err == nil {
			return
		}
		if !errors.IsConflict(err) || attempt >= 20 {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestWhatTwoManagersDoToOneController runs two controller-managers against
// one controller of N.
//
// In 2014 both managers see the same deficit and both create it: more than
// N creates, and more than N pods until both delete the surplus.
// Modern managers elect a leader through a lock record on an Endpoints
// object; only the leader acts, so exactly N pods are created.
// Why: high availability was added by running several managers, and without
// a lock they fight; until 2016 deployments used an etcd-lease sidecar
// (podmaster) to keep all but one down.
// Related: kubernetes/kubernetes#16830, kubernetes/kubernetes#19621.
func TestWhatTwoManagersDoToOneController(t *testing.T) {
	const n = 20
	st := stacktest.Start(t, stack.Config{
		Nodes: 5, StartDelay: 100 * time.Millisecond, ControllerManagers: 2,
		SyncPeriod: 2 * time.Second, EndpointsPeriod: 2 * time.Second,
	})
	c := newClient(st)
	if _, err := c.CreateReplicationController(api.NewDefaultContext(), nginxController(n)); err != nil {
		t.Fatal(err)
	}

	if !modern {
		maxActive := 0
		stacktest.Eventually(t, deadline, "the two 2014 managers to overshoot", func() (bool, error) {
			pods, err := activePods(c)
			if err != nil {
				return false, err
			}
			maxActive = max(maxActive, len(pods))
			posts := podPosts(t, st)
			return posts > n || maxActive > n, fmt.Errorf("%v pod creates, at most %d pods", posts, maxActive)
		})
		t.Logf("2014: %v pod creates for N=%d, at most %d active pods seen", podPosts(t, st), n, maxActive)
		return
	}

	stacktest.Eventually(t, deadline, "N running pods", runningExactly(c, n))
	// Keep watching for a while: the follower must stay idle.
	for i := 0; i < 30; i++ {
		pods, err := activePods(c)
		if err != nil {
			t.Fatal(err)
		}
		if len(pods) != n {
			t.Fatalf("%d active pods with two modern managers, want exactly %d", len(pods), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
	posts := podPosts(t, st)
	t.Logf("modern: %v pod creates for N=%d with two managers", posts, n)
	if posts != n {
		t.Fatalf("%v pod creates with two modern managers, want exactly %d", posts, n)
	}
	if died := st.Died(); died != "" {
		t.Fatalf("%s exited", died)
	}
}

// TestHowManyGoroutinesAScaleUpTakes scales a controller from 0 to 1 000
// and samples the controller-manager's goroutine count.
//
// In 2014 the manager starts one goroutine per missing pod, all at once:
// the peak follows N.
// Modern creates at most burstReplicas (500) per sync, in slow-start
// batches of 1, 2, 4, … 245, so the peak stays under 500 plus a constant
// however large N is. (The client's rate limit is off here, as in the
// benchmark's second series, so that the limit is the design's.)
// Why: 1 000 goroutines meant 1 000 concurrent requests against the
// apiserver.
// Related: kubernetes/kubernetes#4866, kubernetes/kubernetes#7869,
// kubernetes/kubernetes#49142.
func TestHowManyGoroutinesAScaleUpTakes(t *testing.T) {
	const n = 1000
	cfg := stack.Config{Nodes: 10, StartDelay: 100 * time.Millisecond, ControllerManagers: 1, SyncPeriod: 2 * time.Second}
	if modern {
		cfg.ControllerManagerArgs = []string{"-kube_api_qps=0"}
	}
	st := stacktest.Start(t, cfg)
	c := newClient(st)
	managerMetrics := st.ManagerURLs[0] + "/metrics"
	baseline, err := sampler.Scrape(managerMetrics)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateReplicationController(api.NewDefaultContext(), nginxController(n)); err != nil {
		t.Fatal(err)
	}
	peak := baseline.Sum("go_goroutines", nil)
	stop := time.Now().Add(deadline)
	for {
		m, err := sampler.Scrape(managerMetrics)
		if err == nil {
			peak = max(peak, m.Sum("go_goroutines", nil))
			if m.Sum("replication_manager_pod_creates_total", nil) >= n {
				break
			}
		}
		if time.Now().After(stop) {
			t.Fatalf("the manager did not issue %d creates (peak so far %v goroutines)", n, peak)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("%s: goroutine peak %v for N=%d (baseline %v)", stacktest.Design, peak, n, baseline.Sum("go_goroutines", nil))
	if modern {
		if peak > 500+200 {
			t.Fatalf("modern goroutine peak %v, want at most 500 plus a small constant", peak)
		}
		return
	}
	if peak < 0.8*n {
		t.Fatalf("2014 goroutine peak %v, want about N=%d or more", peak, n)
	}
}

// TestWhatAnIdleClusterCosts leaves a converged controller alone for a
// while, with the 2014 sync period shortened to 2 s, and counts the
// controller-manager's requests.
//
// In 2014 every tick lists all controllers and each controller's pods, and
// every endpoints pass lists the services, changed or not.
// Modern informers keep caches current over watches; syncs read the caches
// and a status that did not change is not written, so an idle cluster costs
// about no request.
// Why: the LISTs of idle managers were a large share of apiserver load.
// Related: kubernetes/kubernetes#6562, kubernetes/kubernetes#6518,
// kubernetes/kubernetes#6866, kubernetes/kubernetes#6943.
func TestWhatAnIdleClusterCosts(t *testing.T) {
	const window = 12 * time.Second
	st := stacktest.Start(t, stack.Config{
		Nodes: 5, StartDelay: 100 * time.Millisecond, ControllerManagers: 1,
		SyncPeriod: 2 * time.Second, EndpointsPeriod: 2 * time.Second,
	})
	c := newClient(st)
	if _, err := c.CreateReplicationController(api.NewDefaultContext(), nginxController(5)); err != nil {
		t.Fatal(err)
	}
	stacktest.Eventually(t, deadline, "5 running pods", runningExactly(c, 5))
	if modern {
		stacktest.Eventually(t, deadline, "the status to show 5 available pods", func() (bool, error) {
			rc, err := c.GetReplicationController(api.NewDefaultContext(), "nginxController")
			if err != nil {
				return false, err
			}
			cur := rc.CurrentState
			return cur.Replicas == 5 && cur.ReadyReplicas == 5 && cur.AvailableReplicas == 5, fmt.Errorf("status %+v", cur)
		})
	}
	time.Sleep(time.Second)

	all := func() float64 { return managerRequests(t, st, nil) }
	lists := func() float64 { return managerRequests(t, st, map[string]string{"verb": "LIST"}) }
	startAll, startLists := all(), lists()
	time.Sleep(window)
	requests, listed := all()-startAll, lists()-startLists
	perMinute := requests * float64(time.Minute) / float64(window)
	t.Logf("%s: %v requests (%v LISTs) in %v idle, %.0f a minute", stacktest.Design, requests, listed, window, perMinute)
	if modern {
		if requests > 2 {
			t.Fatalf("modern sent %v requests in %v of idleness, want about none", requests, window)
		}
		return
	}
	// Six ticks of the manager and six endpoint passes, give or take one.
	if listed < 6 {
		t.Fatalf("2014 sent %v LISTs in %v, want a few every 2 s tick", listed, window)
	}
}

// TestWhatAManagerDoesWhilePodCreatesFail makes every pod POST fail with a
// 500 for a while, then lets them through.
//
// In 2014 every tick sends all N creates again, however often they fail:
// N requests per period for as long as the fault lasts.
// Modern slow start sends one create per sync and stops at the failure,
// and the failed sync comes back after 5 ms, 10 ms, 20 ms, … per
// controller: few requests, at growing intervals. Both create the N pods
// once the fault clears (the modern one at its next retry).
// Why: controllers refused by quota or a sick apiserver hammered it with
// doomed requests.
// Related: kubernetes/kubernetes#22298, kubernetes/kubernetes#30629,
// kubernetes/kubernetes#24052, kubernetes/kubernetes#49145,
// kubernetes/kubernetes#49142.
func TestWhatAManagerDoesWhilePodCreatesFail(t *testing.T) {
	const n = 50
	const half = 4 * time.Second
	st := stacktest.Start(t, stack.Config{
		Nodes: 5, StartDelay: 100 * time.Millisecond, ControllerManagers: 1,
		SyncPeriod: 2 * time.Second, EndpointsPeriod: 2 * time.Second,
	})
	c := newClient(st)
	setFaults(t, st, faults.Config{Fail: []faults.FailRule{{Verb: "POST", Resource: "pods", Fraction: 1, Code: 500}}})
	start := podPosts(t, st)
	if _, err := c.CreateReplicationController(api.NewDefaultContext(), nginxController(n)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(half)
	mid := podPosts(t, st)
	time.Sleep(half)
	end := podPosts(t, st)
	first, second := mid-start, end-mid
	t.Logf("%s: %v pod POSTs in the first %v of the fault, %v in the next %v", stacktest.Design, first, half, second, half)
	setFaults(t, st, faults.Config{})

	if modern {
		if first+second > n/2 {
			t.Errorf("modern sent %v pod POSTs during the fault, want it backing off (well under N=%d)", first+second, n)
		}
		if second >= first {
			t.Errorf("modern sent %v POSTs, then %v: want the intervals to grow", first, second)
		}
	} else if first < n || second < n {
		t.Errorf("2014 sent %v then %v pod POSTs, want N=%d again on every tick", first, second, n)
	}
	stacktest.Eventually(t, deadline, "N running pods after the fault cleared", runningExactly(c, n))
}
