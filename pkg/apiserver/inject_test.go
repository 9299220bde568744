package apiserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver/faults"
)

func TestInjectedFailuresAreCountedAndNeverReachStorage(t *testing.T) {
	switchboard := faults.New(7)
	if err := switchboard.Set(faults.Config{Fail: []faults.FailRule{{Verb: "POST", Resource: "simple", Fraction: 0.1, Code: 500}}}); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Faults: switchboard})
	failures := 0
	for i := 0; i < 1000; i++ {
		req := httptest.NewRequest("POST", "/api/v1beta1/simple?sync=true", strings.NewReader(`{"id":"a"}`))
		rec := httptest.NewRecorder()
		ts.ServeHTTP(rec, req)
		switch rec.Code {
		case 200:
		case 500:
			failures++
			status := decodeStatus(t, rec.Body.Bytes())
			if status.Reason != api.StatusReasonInternalError || !strings.Contains(status.Message, "injected fault") {
				t.Fatalf("injected Status = %+v", status)
			}
		default:
			t.Fatalf("HTTP %d %s", rec.Code, rec.Body)
		}
	}
	if failures < 50 || failures > 150 {
		t.Errorf("%d failures in 1000 at 0.1, want between 50 and 150", failures)
	}
	if writes := ts.storage.writeCount(); writes != 1000-failures {
		t.Errorf("storage saw %d writes with %d injected failures; want %d", writes, failures, 1000-failures)
	}
	if got := metricValue(t, ts.opts.Registry, "apiserver_injected_faults_total", map[string]string{"verb": "POST", "resource": "simple", "kind": "fail"}); got != float64(failures) {
		t.Errorf("injected faults counted %v, want %d", got, failures)
	}
	if got := metricValue(t, ts.opts.Registry, "apiserver_request_total", map[string]string{"verb": "POST", "code": "500"}); got != float64(failures) {
		t.Errorf("500s counted %v, want %d", got, failures)
	}
	// Other verbs and resources are untouched.
	if resp, body := ts.do(t, "GET", "/api/v1beta1/simple", ""); resp.StatusCode != 200 {
		t.Errorf("LIST: HTTP %d %s", resp.StatusCode, body)
	}
}

func TestAnInjectedCodeGetsItsReason(t *testing.T) {
	switchboard := faults.New(1)
	ts := newTestServer(t, Options{Faults: switchboard})
	for _, c := range []struct {
		verb, method, path string
		code               int
		reason             api.StatusReason
	}{
		{"WATCH", "GET", "/api/v1beta1/watch/simple", 503, api.StatusReasonServiceUnavailable},
		{"GET", "GET", "/api/v1beta1/operations/1", 429, "TooManyRequests"},
		{"DELETE", "DELETE", "/api/v1beta1/simple/a", 409, api.StatusReasonConflict},
	} {
		resource := "simple"
		if strings.Contains(c.path, "operations") {
			resource = "operations"
		}
		if err := switchboard.Set(faults.Config{Fail: []faults.FailRule{{Verb: c.verb, Resource: resource, Fraction: 1, Code: c.code}}}); err != nil {
			t.Fatal(err)
		}
		resp, body := ts.do(t, c.method, c.path, "")
		status := decodeStatus(t, body)
		if resp.StatusCode != c.code || status.Code != c.code || status.Reason != c.reason {
			t.Errorf("%s %s: HTTP %d %+v, want %d %s", c.method, c.path, resp.StatusCode, status, c.code, c.reason)
		}
	}
	if n := ts.storage.writeCount(); n != 0 {
		t.Errorf("storage saw %d writes", n)
	}
}

func TestInjectedLatencyDelaysWithoutFailing(t *testing.T) {
	switchboard := faults.New(1)
	if err := switchboard.Set(faults.Config{Latency: []faults.LatencyRule{{Verb: "*", Resource: "simple", Latency: faults.Duration(time.Millisecond)}}}); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Faults: switchboard, AsyncOpWait: quickEnough})
	if resp, body := ts.do(t, "POST", "/api/v1beta1/simple", `{"id":"a"}`); resp.StatusCode != 200 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	if got := metricValue(t, ts.opts.Registry, "apiserver_injected_faults_total", map[string]string{"kind": "latency", "verb": "POST"}); got != 1 {
		t.Errorf("latency faults counted %v, want 1", got)
	}
}

func TestCloseWatchesEveryEndsOpenStreamsCleanly(t *testing.T) {
	switchboard := faults.New(1)
	ts := newTestServer(t, Options{Faults: switchboard})
	_, r, fake, _ := openWatch(t, ts, "")
	fake.Add(&Simple{TypeMeta: api.TypeMeta{ID: "a"}})
	readLine(t, r)

	// Set at run time through the admin endpoint: the open stream must
	// notice the new rule.
	resp, body := ts.do(t, "PUT", "/admin/faults", `{"closeWatchesEvery":"20ms"}`)
	if resp.StatusCode != 200 {
		t.Fatalf("PUT /admin/faults: HTTP %d %s", resp.StatusCode, body)
	}
	expectEOF(t, r)
	eventually(t, "the storage watch to stop", fake.IsStopped)
	if got := metricValue(t, ts.opts.Registry, "apiserver_injected_faults_total", map[string]string{"kind": "close_watch"}); got != 1 {
		t.Errorf("closed watches counted %v, want 1", got)
	}

	// A stream opened while the rule stands is closed too.
	_, r, fake, _ = openWatch(t, ts, "")
	expectEOF(t, r)
	eventually(t, "the second storage watch to stop", fake.IsStopped)
}

func TestTheAdminEndpointIsServedToLoopbackOnly(t *testing.T) {
	ts := newTestServer(t, Options{})
	resp, body := ts.do(t, "PUT", "/admin/faults", `{"fail":[{"verb":"POST","resource":"simple","fraction":1,"code":503}]}`)
	if resp.StatusCode != 200 {
		t.Fatalf("PUT from loopback: HTTP %d %s", resp.StatusCode, body)
	}
	resp, body = ts.do(t, "PUT", "/admin/faults", `{"fail":[{"verb":"POST","resource":"nope","fraction":1,"code":503}]}`)
	if resp.StatusCode != 400 || !strings.Contains(decodeStatus(t, body).Message, `"nope" is not served`) {
		t.Errorf("rule for an unknown resource: HTTP %d %s", resp.StatusCode, body)
	}
	if resp, _ := ts.do(t, "POST", "/api/v1beta1/simple", `{"id":"a"}`); resp.StatusCode != 503 {
		t.Errorf("POST after the rule: HTTP %d, want 503", resp.StatusCode)
	}

	req := httptest.NewRequest("DELETE", "/admin/faults", nil)
	req.RemoteAddr = "192.0.2.7:5555"
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden || decodeStatus(t, rec.Body.Bytes()).Code != 403 {
		t.Errorf("DELETE from 192.0.2.7: HTTP %d %s", rec.Code, rec.Body)
	}
	if len(ts.faults.Config().Fail) != 1 {
		t.Errorf("a refused DELETE cleared the rules")
	}
	if writes := ts.storage.writeCount(); writes != 0 {
		t.Errorf("storage saw %d writes", writes)
	}
}
