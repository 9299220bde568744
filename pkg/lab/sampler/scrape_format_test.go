package sampler

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// TestAScrapeReadsProtobufWhereServedAndTextElsewhere: a registry served
// by promhttp answers the scrape in protobuf, a server of text alone in
// text, and both read the same.
func TestAScrapeReadsProtobufWhereServedAndTextElsewhere(t *testing.T) {
	reg := prometheus.NewRegistry()
	requests := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "apiserver_request_total", Help: "Requests."}, []string{"verb", "component"})
	goroutines := prometheus.NewGauge(prometheus.GaugeOpts{Name: "go_goroutines", Help: "Goroutines."})
	reg.MustRegister(requests, goroutines)
	requests.WithLabelValues("LIST", "controller-manager").Add(3)
	requests.WithLabelValues("POST", "controller-manager").Add(20)
	goroutines.Set(42)
	var format string
	proto := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, r)
		format = rec.Header().Get("Content-Type")
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Write(rec.Body.Bytes())
	}))
	defer proto.Close()
	text := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "# TYPE apiserver_request_total counter\n"+
			"apiserver_request_total{component=\"controller-manager\",verb=\"LIST\"} 3\n"+
			"apiserver_request_total{component=\"controller-manager\",verb=\"POST\"} 20\n"+
			"# TYPE go_goroutines gauge\ngo_goroutines 42\n")
	}))
	defer text.Close()
	for _, url := range []string{proto.URL, text.URL} {
		m, err := Scrape(url)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.By("apiserver_request_total", "verb", nil); got["LIST"] != 3 || got["POST"] != 20 {
			t.Errorf("%s: requests by verb %v; want LIST 3 and POST 20", url, got)
		}
		if got := m.Sum("go_goroutines", nil); got != 42 {
			t.Errorf("%s: %v goroutines; want 42", url, got)
		}
	}
	if !strings.Contains(format, "protobuf") {
		t.Errorf("promhttp answered the scrape in %q, not protobuf", format)
	}
}
