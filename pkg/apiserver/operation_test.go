package apiserver

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// blockWrites makes the storage hold every write until the returned
// function is called.
func blockWrites(ts *testServer) (release func()) {
	block := make(chan struct{})
	ts.storage.mu.Lock()
	ts.storage.block = block
	ts.storage.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { close(block) }) }
}

// pollOperation polls the operation until it is no longer working and
// returns the final answer.
func pollOperation(t *testing.T, ts *testServer, id string) (int, []byte) {
	t.Helper()
	var code int
	var body []byte
	watchtest.Eventually(t, "operation "+id+" to finish", func() bool {
		resp, out := ts.do(t, "GET", "/api/v1beta1/operations/"+id, "")
		code, body = resp.StatusCode, out
		return code != 202
	})
	return code, body
}

func TestASlowWriteAnswers202AndItsOperationEndsWithTheResult(t *testing.T) {
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/v1beta1/simple", `{"id":"foo","name":"bar"}`},
		{"PUT", "/api/v1beta1/simple/foo", `{"name":"bar"}`},
		{"DELETE", "/api/v1beta1/simple/foo", ""},
	} {
		t.Run(c.method, func(t *testing.T) {
			ts := newTestServer(t, Options{})
			release := blockWrites(ts)
			defer release()

			resp, body := ts.do(t, c.method, c.path, c.body)
			if resp.StatusCode != 202 {
				t.Fatalf("HTTP %d, want 202: %s", resp.StatusCode, body)
			}
			want := `{"kind":"Status","creationTimestamp":null,"apiVersion":"v1beta1","status":"Working","reason":"Working","details":{"id":"1","kind":"operation"}}`
			if string(body) != want {
				t.Errorf("202 body\n got %s\nwant %s", body, want)
			}

			resp, body = ts.do(t, "GET", "/api/v1beta1/operations/1", "")
			if resp.StatusCode != 202 || decodeStatus(t, body).Status != api.StatusWorking {
				t.Errorf("poll while running: HTTP %d %s", resp.StatusCode, body)
			}

			release()
			code, body := pollOperation(t, ts, "1")
			if code != 200 {
				t.Fatalf("final poll: HTTP %d %s", code, body)
			}
			if c.method == "DELETE" {
				if s := decodeStatus(t, body); s.Status != api.StatusSuccess {
					t.Errorf("result %+v", s)
				}
			} else if got := decodeSimple(t, body); got.ID != "foo" || got.Name != "bar" || got.SelfLink != "/api/v1beta1/simple/foo" {
				t.Errorf("result %+v", got)
			}
		})
	}
}

func TestAFailedOperationIsServedWith200AndItsCodeInTheBody(t *testing.T) {
	ts := newTestServer(t, Options{})
	release := blockWrites(ts)
	ts.storage.injectedFunction = func(api.Object) (api.Object, error) {
		return nil, apierrors.NewAlreadyExists("simple", "foo")
	}
	resp, body := ts.do(t, "POST", "/api/v1beta1/simple", `{"id":"foo"}`)
	if resp.StatusCode != 202 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	release()
	code, body := pollOperation(t, ts, "1")
	status := decodeStatus(t, body)
	if code != 200 || status.Code != 409 || status.Reason != api.StatusReasonAlreadyExists {
		t.Errorf("HTTP %d, Status %+v; want 200 carrying a 409", code, status)
	}
}

func TestSyncWaitsForTheWriteAndAShortTimeoutStillAnswers202(t *testing.T) {
	ts := newTestServer(t, Options{})
	release := blockWrites(ts)
	defer release()

	resp, body := ts.do(t, "POST", "/api/v1beta1/simple?sync=true&timeout=1ms", `{"id":"foo"}`)
	if resp.StatusCode != 202 {
		t.Fatalf("short timeout: HTTP %d %s", resp.StatusCode, body)
	}

	done := make(chan struct{})
	var code int
	go func() {
		defer close(done)
		resp, _ := ts.do(t, "POST", "/api/v1beta1/simple?sync=true&timeout=1h", `{"id":"bar"}`)
		code = resp.StatusCode
	}()
	// The sync request can only finish after release.
	watchtest.Eventually(t, "the second write to reach storage", func() bool { return ts.storage.writeCount() == 2 })
	release()
	<-done
	if code != 200 {
		t.Errorf("sync request: HTTP %d, want 200", code)
	}
}

func TestOperationsAreListedWithIDsSortedAsStrings(t *testing.T) {
	ts := newTestServer(t, Options{AsyncOpWait: time.Nanosecond})
	release := blockWrites(ts)
	defer release()
	for i := 0; i < 11; i++ {
		if resp, body := ts.do(t, "POST", "/api/v1beta1/simple", fmt.Sprintf(`{"id":"s%d"}`, i)); resp.StatusCode != 202 {
			t.Fatalf("write %d: HTTP %d %s", i, resp.StatusCode, body)
		}
	}
	resp, body := ts.do(t, "GET", "/api/v1beta1/operations", "")
	if resp.StatusCode != 200 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	var list api.ServerOpList
	if err := api.DecodeInto(body, &list); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, op := range list.Items {
		ids = append(ids, op.ID)
	}
	if got := strings.Join(ids, ","); got != "1,10,11,2,3,4,5,6,7,8,9" {
		t.Errorf("ids = %s", got)
	}
}

func TestAQuickWriteLeavesNoOperationBehind(t *testing.T) {
	ts := newTestServer(t, Options{})
	if resp, body := ts.do(t, "POST", "/api/v1beta1/simple?sync=true", `{"id":"foo"}`); resp.StatusCode != 200 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	if n := len(ts.ops.List().Items); n != 0 {
		t.Errorf("%d operations listed after a write that finished in time", n)
	}
}

func TestFinishedOperationsExpireTenMinutesLaterOnTheFiveMinuteSweep(t *testing.T) {
	ts := newTestServer(t, Options{})
	clock := &fakeClock{now: time.Unix(1_000_000, 0)}
	ts.ops.now = clock.Now
	ts.ops.lastSweep = clock.Now()

	release := blockWrites(ts)
	if resp, _ := ts.do(t, "POST", "/api/v1beta1/simple", `{"id":"done"}`); resp.StatusCode != 202 {
		t.Fatalf("first write: HTTP %d", resp.StatusCode)
	}
	release()
	if code, _ := pollOperation(t, ts, "1"); code != 200 {
		t.Fatalf("operation 1 ended with %d", code)
	}
	release2 := blockWrites(ts)
	defer release2()
	if resp, _ := ts.do(t, "POST", "/api/v1beta1/simple", `{"id":"running"}`); resp.StatusCode != 202 {
		t.Fatalf("second write: HTTP %d", resp.StatusCode)
	}

	present := func(id string) bool { return ts.ops.Get(id) != nil }
	steps := []struct {
		advance       time.Duration
		done, running bool
	}{
		// Six minutes on: a sweep runs, but the finished one is young.
		{6 * time.Minute, true, true},
		// Ten minutes and a second after it finished: past its age, but
		// the next sweep is not due for another minute.
		{4*time.Minute + time.Second, true, true},
		// Eleven minutes: the sweep drops it; the running one stays.
		{time.Minute, false, true},
		// A running operation is never dropped.
		{time.Hour, false, true},
	}
	for i, step := range steps {
		clock.Step(step.advance)
		if got := present("1"); got != step.done {
			t.Errorf("step %d: finished operation present = %v, want %v", i, got, step.done)
		}
		if got := present("2"); got != step.running {
			t.Errorf("step %d: running operation present = %v, want %v", i, got, step.running)
		}
	}
	resp, body := ts.do(t, "GET", "/api/v1beta1/operations/1", "")
	if resp.StatusCode != 404 || decodeStatus(t, body).Reason != api.StatusReasonNotFound {
		t.Errorf("expired operation: HTTP %d %s", resp.StatusCode, body)
	}
}

func TestNoGoroutineOutlivesAnOperation(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.do(t, "GET", "/healthz", "")
	before := runtime.NumGoroutine()

	release := blockWrites(ts)
	for i := 0; i < 20; i++ {
		if resp, _ := ts.do(t, "POST", "/api/v1beta1/simple", fmt.Sprintf(`{"id":"s%d"}`, i)); resp.StatusCode != 202 {
			t.Fatalf("write %d: HTTP %d", i, resp.StatusCode)
		}
	}
	release()
	for i := 1; i <= 20; i++ {
		pollOperation(t, ts, fmt.Sprint(i))
	}
	watchtest.GoroutinesAtMost(t, before)
}
