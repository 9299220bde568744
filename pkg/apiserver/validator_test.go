package apiserver

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// closedAddress returns a loopback address nothing listens on.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestValidateReportsEachComponentsHealthAsV04Did(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/healthz" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("ok"))
	}))
	defer up.Close()
	sick := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "etcd unreachable", http.StatusInternalServerError)
	}))
	defer sick.Close()
	ts := newTestServer(t, Options{ValidateServers: map[string]string{
		"controller-manager": strings.TrimPrefix(up.URL, "http://"),
		"scheduler":          closedAddress(t),
		"sick":               strings.TrimPrefix(sick.URL, "http://"),
	}})

	resp, body := ts.do(t, "GET", "/api/v1beta1/validate", "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, type %q: %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	var got []ServerStatus
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if len(got) != 3 {
		t.Fatalf("got %d statuses: %s", len(got), body)
	}
	if want := (ServerStatus{Component: "controller-manager", Health: "healthy", Msg: "ok", Err: "nil"}); got[0] != want {
		t.Errorf("healthy component: %+v, want %+v", got[0], want)
	}
	if s := got[1]; s.Component != "scheduler" || s.Health != "unknown" || s.HealthCode != 2 || !strings.Contains(s.Err, "refused") {
		t.Errorf("absent component: %+v", s)
	}
	if s := got[2]; s.Component != "sick" || s.Health != "unhealthy" || s.HealthCode != 1 || s.Msg != "etcd unreachable\n" ||
		s.Err != "unhealthy http status code: 500 (500 Internal Server Error)" {
		t.Errorf("unhealthy component: %+v", s)
	}
	if strings.Contains(string(body), `"healthCode":0`) {
		t.Errorf("a healthy code should be left out, as in v0.4: %s", body)
	}
}

func TestValidateByDefaultAsksTheV04Ports(t *testing.T) {
	ts := newTestServer(t, Options{})
	if got := ts.opts.ValidateServers; got["controller-manager"] != "127.0.0.1:10252" || got["scheduler"] != "127.0.0.1:10251" || len(got) != 2 {
		t.Errorf("default servers %v", got)
	}
}
