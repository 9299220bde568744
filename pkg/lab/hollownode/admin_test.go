package hollownode

import (
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
