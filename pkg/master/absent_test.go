package master

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestWhatV04ServedAndThisPortLeavesOutIsA404Status asks for each route
// absent.go lists and expects a 404 Status, never a 500 or a page, and
// /validate, which is served, to answer.
func TestWhatV04ServedAndThisPortLeavesOutIsA404Status(t *testing.T) {
	s := startRealServer(t)
	for _, path := range []string{
		"/api/v1beta2/pods",
		"/api/v1beta1/events",
		"/api/v1beta1/proxy/services/frontend/",
		"/api/v1beta1/redirect/services/frontend",
		"/proxy/minion/hollow-node-0/healthz",
		"/logs/",
		"/static/",
	} {
		code, body := s.do(t, "GET", path, nil)
		var status struct {
			Kind string `json:"kind"`
			Code int    `json:"code"`
		}
		if err := json.Unmarshal(body, &status); err != nil || code != http.StatusNotFound || status.Kind != "Status" || status.Code != 404 {
			t.Errorf("GET %s: %d %.200s", path, code, body)
		}
	}
	code, body := s.do(t, "GET", "/api/v1beta1/validate", nil)
	if code != http.StatusOK || !strings.Contains(string(body), `"component":"controller-manager"`) {
		t.Errorf("GET /api/v1beta1/validate: %d %.300s", code, body)
	}
}
