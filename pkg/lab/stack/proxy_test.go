package stack

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestTheMeterCountsRequestsAsOurApiserverLabelsThem(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch {
		case strings.HasPrefix(r.URL.Path, "/api/v1beta1/watch/"):
			// An ERROR event split over two writes.
			w.Write([]byte(`{"type":"ADDED","object":{}}` + "\n" + `{"type":"ER`))
			w.(http.Flusher).Flush()
			time.Sleep(10 * time.Millisecond)
			w.Write([]byte(`ROR","object":{}}` + "\n"))
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
			w.Write([]byte(`{"kind":"Status"}`))
		case strings.HasSuffix(r.URL.Path, "/missing"):
			w.WriteHeader(http.StatusNotFound)
		default:
			w.Write([]byte(`{}`))
		}
	}))
	defer backend.Close()
	m, err := StartMeter(backend.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	do := func(method, path, agent, body string) {
		req, _ := http.NewRequest(method, m.URL+path, strings.NewReader(body))
		if agent != "" {
			req.Header.Set("User-Agent", agent)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	do("GET", "/api/v1beta1/pods", "", "")
	do("GET", "/api/v1beta1/pods/missing", "", "")
	do("POST", "/api/v1beta1/pods", "controller-manager/v0.4", "{12345}")
	do("GET", "/api/v1beta1/operations/7", "", "")
	do("GET", "/api/v1beta1/watch/replicationControllers", "", "")
	do("GET", "/api/v1beta1/nonsense/x", "Bad!Agent/1", "")
	do("GET", "/healthz", "", "")

	resp, err := http.Get(m.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`apiserver_request_total{code="200",component="go-http-client",resource="pods",verb="LIST"} 1`,
		`apiserver_request_total{code="404",component="go-http-client",resource="pods",verb="GET"} 1`,
		`apiserver_request_total{code="202",component="controller-manager",resource="pods",verb="POST"} 1`,
		`apiserver_request_total{code="200",component="go-http-client",resource="operations",verb="GET"} 1`,
		`apiserver_request_total{code="200",component="go-http-client",resource="replicationControllers",verb="WATCH"} 1`,
		`apiserver_request_total{code="200",component="other",resource="unknown",verb="GET"} 1`,
		`apiserver_request_body_bytes_total{component="controller-manager",resource="pods",verb="POST"} 7`,
		`apiserver_response_body_bytes_total{component="controller-manager",resource="pods",verb="POST"} 17`,
		`apiserver_watch_errors_total{component="go-http-client",resource="replicationControllers"} 1`,
	} {
		if !strings.Contains(string(page), want+"\n") {
			t.Errorf("the meter's /metrics lacks %s", want)
		}
	}
	if strings.Contains(string(page), "healthz") {
		t.Errorf("the meter counted /healthz, which is outside the API:\n%s", page)
	}
}

func TestTheEtcdFrontMovesAWritesQueryIntoItsBody(t *testing.T) {
	etcd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		fmt.Fprintf(w, "%s query=%d value=%s prevIndex=%s prevValue=%d", r.Method, len(r.URL.RawQuery), r.Form.Get("value"), r.Form.Get("prevIndex"), len(r.Form.Get("prevValue")))
	}))
	defer etcd.Close()
	f, err := startEtcdFront(etcd.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	big := strings.Repeat("manifest", 1000)
	for _, tc := range []struct{ method, query, body, want string }{
		{"PUT", "prevIndex=7&prevValue=" + url.QueryEscape(big), "value=new", "PUT query=0 value=new prevIndex=7 prevValue=8000"},
		{"PUT", "", "value=new", "PUT query=0 value=new prevIndex= prevValue=0"},
		{"GET", "recursive=true&wait=true", "", "GET query=24 value= prevIndex= prevValue=0"},
	} {
		req, _ := http.NewRequest(tc.method, f.URL+"/v2/keys/registry/hosts/127.0.0.2/kubelet?"+tc.query, strings.NewReader(tc.body))
		if tc.body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded; param=value")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != tc.want {
			t.Errorf("%s ?%.20s: etcd read %q, want %q", tc.method, tc.query, got, tc.want)
		}
	}
}
