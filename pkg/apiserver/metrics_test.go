package apiserver

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

func gaugeValue(t *testing.T, ts *testServer, name string, labels map[string]string) float64 {
	return registrytest.MetricValue(t, ts.opts.Registry, name, labels)
}

func TestRequestsAreCountedByVerbResourceCodeAndComponent(t *testing.T) {
	ts := newTestServer(t, Options{AsyncOpWait: quickEnough})
	cm := []string{"User-Agent", "controller-manager/v0.4 (linux/amd64) kube-rewind"}
	ts.do(t, "GET", "/api/v1beta1/simple", "", cm...)
	ts.do(t, "GET", "/api/v1beta1/simple", "", cm...)
	ts.do(t, "GET", "/api/v1beta1/simple/a", "", cm...)
	ts.do(t, "POST", "/api/v1beta1/simple", `{"id":"a"}`, cm...)
	ts.do(t, "PUT", "/api/v1beta1/simple/a", `{"id":"a"}`, cm...)
	ts.do(t, "DELETE", "/api/v1beta1/simple/a", "", cm...)
	ts.do(t, "DELETE", "/api/v1beta1/simple/a", "", "User-Agent", "Kubecfg/1.0")
	ts.do(t, "POST", "/api/v1beta1/simple", `{`, cm...)
	ts.do(t, "GET", "/api/v1beta1/nope", "", "User-Agent", "curl/8.0")
	ts.do(t, "GET", "/api/v1beta1/operations/5", "", "User-Agent", "a weird/agent")
	ts.do(t, "GET", "/api/v1beta1/operations", "", "User-Agent", "")
	ts.do(t, "GET", "/healthz", "", cm...)
	ts.storage.errors["watch"] = nil
	_, r, fake, cancel := openWatch(t, ts, "")
	fake.Add(&Simple{TypeMeta: api.TypeMeta{ID: "a"}})
	readLine(t, r)
	cancel()
	watchtest.Eventually(t, "the watch to be counted", func() bool {
		return registrytest.MetricValue(t, ts.opts.Registry, "apiserver_request_total", map[string]string{"verb": "WATCH"}) == 1
	})

	reg := ts.opts.Registry
	cases := []struct {
		labels map[string]string
		want   float64
	}{
		{map[string]string{"verb": "LIST", "resource": "simple", "code": "200", "component": "controller-manager"}, 2},
		{map[string]string{"verb": "GET", "resource": "simple", "code": "200", "component": "controller-manager"}, 1},
		{map[string]string{"verb": "POST", "resource": "simple", "code": "200", "component": "controller-manager"}, 1},
		{map[string]string{"verb": "POST", "resource": "simple", "code": "400", "component": "controller-manager"}, 1},
		{map[string]string{"verb": "PUT", "resource": "simple", "code": "200", "component": "controller-manager"}, 1},
		{map[string]string{"verb": "DELETE", "resource": "simple", "code": "200", "component": "controller-manager"}, 1},
		{map[string]string{"verb": "DELETE", "resource": "simple", "code": "200", "component": "kubecfg"}, 1},
		{map[string]string{"verb": "GET", "resource": "unknown", "code": "404", "component": "curl"}, 1},
		{map[string]string{"verb": "GET", "resource": "operations", "code": "404", "component": "a"}, 1},
		{map[string]string{"verb": "LIST", "resource": "operations", "code": "200", "component": "other"}, 1},
		{map[string]string{"verb": "WATCH", "resource": "simple", "code": "200"}, 1},
		{map[string]string{}, 12},
	}
	for _, c := range cases {
		if got := registrytest.MetricValue(t, reg, "apiserver_request_total", c.labels); got != c.want {
			t.Errorf("apiserver_request_total%v = %v, want %v", c.labels, got, c.want)
		}
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_request_duration_seconds", map[string]string{"verb": "LIST", "resource": "simple"}); got != 2 {
		t.Errorf("LIST duration samples = %v, want 2", got)
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_request_duration_seconds", map[string]string{"verb": "WATCH"}); got != 0 {
		t.Errorf("watch streams were timed: %v samples", got)
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_watch_events_total", map[string]string{"resource": "simple"}); got != 1 {
		t.Errorf("watch events = %v, want 1", got)
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_inflight_requests", nil); got != 0 {
		t.Errorf("in-flight requests = %v after all answered", got)
	}
}

func TestComponentIsTheFirstWordOfTheUserAgentOrOther(t *testing.T) {
	cases := map[string]string{
		"controller-manager/v0.4 (linux/amd64)": "controller-manager",
		"Go-http-client/1.1":                    "go-http-client",
		"kubecfg":                               "kubecfg",
		"hollow-node 1.0":                       "hollow-node",
		"":                                      "other",
		"/v1":                                   "other",
		"rc_bench/1":                            "other",
		"ünïcode/1":                             "other",
		strings.Repeat("a", 32) + "/1":          strings.Repeat("a", 32),
		strings.Repeat("a", 33) + "/1":          "other",
	}
	for ua, want := range cases {
		if got := componentName(ua); got != want {
			t.Errorf("componentName(%q) = %q, want %q", ua, got, want)
		}
	}
}

func TestComponentLabelsAreCapped(t *testing.T) {
	m := newMetrics(prometheus.NewRegistry())
	for i := 0; i < maxComponents; i++ {
		if got := m.component("c" + strings.Repeat("x", i%30) + string(rune('a'+i/30)) + "/1"); got == componentOther {
			t.Fatalf("component %d was refused before the cap", i)
		}
	}
	if got := m.component("one-too-many/1"); got != componentOther {
		t.Errorf("component past the cap = %q, want other", got)
	}
	if got := m.component("cxa/1"); got == componentOther {
		t.Errorf("a component seen before the cap became other")
	}
}

func TestTwoHandlersMayShareOrNotShareARegistry(t *testing.T) {
	shared := prometheus.NewRegistry()
	a := newTestServer(t, Options{Registry: shared})
	b := newTestServer(t, Options{Registry: shared})
	c := newTestServer(t, Options{})
	for _, ts := range []*testServer{a, b, c} {
		if resp, body := ts.do(t, "GET", "/api/v1beta1/simple", ""); resp.StatusCode != 200 {
			t.Fatalf("HTTP %d %s", resp.StatusCode, body)
		}
	}
	if got := registrytest.MetricValue(t, shared, "apiserver_request_total", nil); got != 2 {
		t.Errorf("shared registry counted %v requests, want 2", got)
	}
	if got := registrytest.MetricValue(t, c.opts.Registry, "apiserver_request_total", nil); got != 1 {
		t.Errorf("own registry counted %v requests, want 1", got)
	}
}

func TestBodyBytesAreCountedByClientReadAndWrittenAndAsAWatchStreams(t *testing.T) {
	ts := newTestServer(t, Options{AsyncOpWait: quickEnough})
	cm := []string{"User-Agent", "controller-manager/v0.4 (linux/amd64) kube-rewind"}
	body := `{"id":"a"}`
	_, created := ts.do(t, "POST", "/api/v1beta1/simple", body, cm...)
	_, listed := ts.do(t, "GET", "/api/v1beta1/simple", "", "User-Agent", "kubecfg")
	reg := ts.opts.Registry
	if got := registrytest.MetricValue(t, reg, "apiserver_request_body_bytes_total", map[string]string{"verb": "POST", "component": "controller-manager"}); got != float64(len(body)) {
		t.Errorf("request bytes of the POST = %v, want %d", got, len(body))
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_response_body_bytes_total", map[string]string{"verb": "POST", "component": "controller-manager"}); got != float64(len(created)) || got == 0 {
		t.Errorf("response bytes of the POST = %v, want %d", got, len(created))
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_response_body_bytes_total", map[string]string{"verb": "LIST", "component": "kubecfg"}); got != float64(len(listed)) || got == 0 {
		t.Errorf("response bytes of the LIST = %v, want %d", got, len(listed))
	}
	if got := registrytest.MetricValue(t, reg, "apiserver_request_body_bytes_total", map[string]string{"verb": "LIST"}); got != 0 {
		t.Errorf("a LIST without a body read %v bytes", got)
	}
	ts.storage.errors["watch"] = nil
	_, r, fake, cancel := openWatch(t, ts, "")
	defer cancel()
	fake.Add(&Simple{TypeMeta: api.TypeMeta{ID: "a"}})
	readLine(t, r)
	// The stream is still open: its bytes count already.
	watchtest.Eventually(t, "the watch event's bytes to be counted", func() bool {
		return registrytest.MetricValue(t, reg, "apiserver_response_body_bytes_total", map[string]string{"verb": "WATCH"}) > 0
	})
}
