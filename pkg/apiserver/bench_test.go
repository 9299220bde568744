package apiserver

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// These measure what the handler itself costs per request (routing,
// decoding, metrics), with a storage that does no work. Run with
// go test -bench . -run '^$' ./pkg/apiserver/.

func benchServer(b *testing.B) *apiServer {
	return newAPIServer(map[string]RESTStorage{"pods": podStorage{}}, DefaultPrefix, Options{Registry: prometheus.NewRegistry()})
}

func BenchmarkHandleList(b *testing.B) {
	s := benchServer(b)
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("GET", "/api/v1beta1/pods?labels=name%3Dnginx", nil)
		req.Header.Set("User-Agent", "controller-manager/v0.4")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("HTTP %d", rec.Code)
		}
	}
}

func BenchmarkHandleCreate(b *testing.B) {
	s := benchServer(b)
	body := `{"kind":"Pod","apiVersion":"v1beta1","labels":{"name":"nginx"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"nginx","image":"dockerfile/nginx","ports":[{"containerPort":80}]}]}}}`
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/api/v1beta1/pods", strings.NewReader(body))
		req.Header.Set("User-Agent", "controller-manager/v0.4")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatalf("HTTP %d", rec.Code)
		}
	}
}

func BenchmarkObserveRequest(b *testing.B) {
	m := newMetrics(prometheus.NewRegistry())
	b.ReportAllocs()
	for b.Loop() {
		m.observe(verbPost, "pods", 200, "controller-manager/v0.4 (linux/amd64)", time.Time{}, true)
	}
}
