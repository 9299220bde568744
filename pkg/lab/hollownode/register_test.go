package hollownode

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
)

// failingMinions fails the registrations of the minions it names with the
// errors it holds for them, one error a try, then lets them through.
type failingMinions struct {
	*fakeCluster
	fail  map[string][]error
	tries map[string]int
	// seen is the count Registered gave at each try.
	seen []int
	h    *Cluster
}

func (f *failingMinions) CreateMinion(m *api.Minion) (*api.Minion, error) {
	f.tries[m.ID]++
	done, _ := f.h.Registered()
	f.seen = append(f.seen, done)
	if errs := f.fail[m.ID]; len(errs) > 0 {
		f.fail[m.ID] = errs[1:]
		return nil, errs[0]
	}
	return f.fakeCluster.CreateMinion(m)
}

func healthz(h *Cluster) int {
	rec := httptest.NewRecorder()
	h.HealthzHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))
	return rec.Code
}

func quickRegistrations(t *testing.T) {
	saved := registerBackoff
	registerBackoff = wait.Backoff{Steps: 4, Duration: time.Millisecond, Factor: 1}
	t.Cleanup(func() { registerBackoff = saved })
}

// A registration the apiserver fails with a server error is tried again
// (v0.4's apiserver answers 5xx when its etcd client times out), and the
// cluster counts a minion registered only once it is: Registered, which
// the hollow-node binary's /healthz answers by, stays short of all the
// minions until the last one is in.
func TestRegistrationTriesAServerErrorAgainAndCountsOnlyWhatIsIn(t *testing.T) {
	quickRegistrations(t)
	f := &failingMinions{fakeCluster: newFakeCluster(0), tries: map[string]int{}, fail: map[string][]error{
		"hollow-node-1": {errors.NewStatus(501, api.StatusReasonUnknown, "All the given peers are not reachable"), errors.NewInternalError(fmt.Errorf("etcd timed out"))},
		"hollow-node-2": {errors.NewAlreadyExists("minion", "hollow-node-2")},
	}}
	h := New(f, Config{Nodes: 3})
	f.h = h
	if done, of := h.Registered(); done != 0 || of != 3 {
		t.Fatalf("before registering: Registered() = %d of %d, want 0 of 3", done, of)
	}
	if code := healthz(h); code != http.StatusServiceUnavailable {
		t.Errorf("/healthz answers %d before any minion is registered, want 503", code)
	}
	if err := h.registerMinions(); err != nil {
		t.Fatalf("registerMinions: %v", err)
	}
	if got := f.tries["hollow-node-1"]; got != 3 {
		t.Errorf("hollow-node-1 was tried %d times, want 3 (two server errors, then in)", got)
	}
	if got := f.tries["hollow-node-2"]; got != 1 {
		t.Errorf("hollow-node-2, already registered, was tried %d times, want 1", got)
	}
	if done, of := h.Registered(); done != 3 || of != 3 {
		t.Errorf("after registering: Registered() = %d of %d, want 3 of 3", done, of)
	}
	if code := healthz(h); code != 200 {
		t.Errorf("/healthz answers %d with every minion registered, want 200", code)
	}
	// Tries of minion 0, 1, 1, 1, 2: minion 1's failed tries count only
	// minion 0.
	if want := []int{0, 1, 1, 1, 2}; fmt.Sprint(f.seen) != fmt.Sprint(want) {
		t.Errorf("Registered() at each try = %v, want %v", f.seen, want)
	}
}

// A registration refused for the minion itself (a 4xx) is not tried
// again, and one that keeps failing stops after the backoff's tries; both
// name the minion, and leave it and those after it unregistered.
func TestRegistrationStopsAtAClientErrorAndAfterItsTries(t *testing.T) {
	quickRegistrations(t)
	for _, tc := range []struct {
		name  string
		errs  []error
		tries int
	}{
		{"client error", []error{errors.NewBadRequest("minion has no host IP")}, 1},
		{"server errors past the backoff", []error{errors.NewInternalError(fmt.Errorf("a")), errors.NewInternalError(fmt.Errorf("b")), errors.NewInternalError(fmt.Errorf("c")), errors.NewInternalError(fmt.Errorf("d")), errors.NewInternalError(fmt.Errorf("e"))}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &failingMinions{fakeCluster: newFakeCluster(0), tries: map[string]int{}, fail: map[string][]error{"hollow-node-1": tc.errs}}
			h := New(f, Config{Nodes: 3})
			f.h = h
			err := h.registerMinions()
			if err == nil || !strings.Contains(err.Error(), "hollow-node-1 (2 of 3") {
				t.Fatalf("registerMinions = %v, want an error naming hollow-node-1, 2 of 3", err)
			}
			if got := f.tries["hollow-node-1"]; got != tc.tries {
				t.Errorf("hollow-node-1 was tried %d times, want %d", got, tc.tries)
			}
			if done, _ := h.Registered(); done != 1 {
				t.Errorf("Registered() = %d after the failure, want 1", done)
			}
			if code := healthz(h); code != http.StatusServiceUnavailable {
				t.Errorf("/healthz answers %d with a minion unregistered, want 503", code)
			}
			if f.tries["hollow-node-2"] != 0 {
				t.Errorf("hollow-node-2 was tried after hollow-node-1 failed")
			}
		})
	}
}
