package hollownode

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTheAdminEndpointAnswersLoopbackCallersOnly sends every admin action
// from addresses off loopback: each must get a 403 and change nothing; the
// same request from a loopback address must work.
func TestTheAdminEndpointAnswersLoopbackCallersOnly(t *testing.T) {
	h := New(newFakeCluster(0), Config{Nodes: 2, NamePrefix: "n-"})
	handler := h.AdminHandler()
	actions := []struct{ method, path, body string }{
		{"GET", "/admin", ""},
		{"PUT", "/admin/failFraction", `{"value": 1}`},
		{"PUT", "/admin/churn", `{"perSecond": 100}`},
		{"POST", "/admin/nodes/n-0/fail", ""},
		{"POST", "/admin/nodes/n-0/recover", ""},
	}
	for _, remote := range []string{"192.0.2.7:5555", "[2001:db8::1]:80", "10.0.0.1:1", "", "127.0.0.1", "not-an-address"} {
		for _, a := range actions {
			req := httptest.NewRequest(a.method, a.path, strings.NewReader(a.body))
			req.RemoteAddr = remote
			rec := httptest.NewRecorder()
			handler.ServeHTTP(rec, req)
			if rec.Code != http.StatusForbidden {
				t.Errorf("%s %s from %q: HTTP %d, want 403", a.method, a.path, remote, rec.Code)
			}
		}
	}
	if s := h.State(); s.FailFraction != 0 || s.ChurnPerSecond != 0 || len(s.FailedNodes) != 0 {
		t.Errorf("a refused request changed the state: %+v", s)
	}
	for _, remote := range []string{"127.0.0.1:5555", "[::1]:5555", "[::ffff:127.0.0.1]:5555"} {
		req := httptest.NewRequest("PUT", "/admin/failFraction", strings.NewReader(`{"value": 0.5}`))
		req.RemoteAddr = remote
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("from %s: HTTP %d %s", remote, rec.Code, rec.Body)
		}
	}
	if s := h.State(); s.FailFraction != 0.5 {
		t.Errorf("fail fraction %v after the loopback request", s.FailFraction)
	}
}

// Each admin action is routed by method and path, a trailing slash
// allowed; anything else is a JSON 404 naming it, and a bad body a JSON
// 400.
func TestTheAdminActionsAreRoutedByMethodAndPath(t *testing.T) {
	h := New(newFakeCluster(0), Config{Nodes: 2, NamePrefix: "n-"})
	handler := h.AdminHandler()
	for _, c := range []struct {
		method, path, body string
		code               int
	}{
		{"GET", "/admin", "", 200},
		{"GET", "/admin/", "", 200},
		{"PUT", "/admin/failFraction", `{"value": 0.25}`, 200},
		{"PUT", "/admin/churn/", `{"perSecond": 2}`, 200},
		{"POST", "/admin/nodes/n-1/fail", "", 200},
		{"POST", "/admin/nodes/n-1/recover", "", 200},
		{"POST", "/admin/nodes/n-1/recover", "", 400},
		{"POST", "/admin/nodes/nobody/fail", "", 400},
		{"PUT", "/admin/failFraction", `{"fraction": 1}`, 400},
		{"PUT", "/admin/churn", `not json`, 400},
		{"POST", "/admin", "", 404},
		{"GET", "/admin/failFraction", "", 404},
		{"POST", "/admin/nodes/n-1/reboot", "", 404},
		{"POST", "/admin/nodes/n-1", "", 404},
		{"GET", "/elsewhere", "", 404},
	} {
		req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
		req.RemoteAddr = "127.0.0.1:5555"
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		var answer map[string]any
		if rec.Code != c.code || json.Unmarshal(rec.Body.Bytes(), &answer) != nil {
			t.Errorf("%s %s: HTTP %d %s, want %d with JSON", c.method, c.path, rec.Code, rec.Body, c.code)
		}
	}
	if s := h.State(); s.FailFraction != 0.25 || s.ChurnPerSecond != 2 || len(s.FailedNodes) != 0 {
		t.Errorf("state after the actions: %+v", s)
	}
}
