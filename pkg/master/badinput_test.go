package master

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
)

// realServer is the whole apiserver on the package's embedded etcd, served
// on loopback.
type realServer struct {
	url    string
	helper tools.EtcdHelper
	client *http.Client
}

// bodyReadTimeout is short, so that the stalled body's case ends soon, yet
// far longer than the largest bad body (3 MB) takes to arrive on a busy
// machine: a 413 must not turn into a 408.
const bodyReadTimeout = 10 * time.Second

// startRealServer serves the apiserver on loopback. A write that is not
// sync waits up to a minute for its outcome instead of 25 ms: a busy
// machine takes longer than that to find a conflict in etcd, and the
// server would answer 202 with an operation instead of the 409 the test
// is after.
func startRealServer(t *testing.T) *realServer {
	t.Helper()
	helper := rt.NewHelper(t)
	opts := apiserver.Options{BodyReadTimeout: bodyReadTimeout, AsyncOpWait: time.Minute}
	srv := httptest.NewServer(apiserver.Handle(NewStorage(helper), apiserver.DefaultPrefix, opts))
	t.Cleanup(srv.Close)
	return &realServer{url: srv.URL, helper: helper, client: srv.Client()}
}

// do sends one request and returns the code and body; it fails t if no
// answer comes within 60 s.
func (s *realServer) do(t *testing.T, method, path string, body io.Reader, header ...string) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, s.url+path, body)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: no answer: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// snapshot returns every key under /registry with its modified index, so
// that any write, even one that puts back the same bytes, shows.
func (s *realServer) snapshot(t *testing.T) map[string]uint64 {
	t.Helper()
	resp, err := s.helper.Client.Get("/registry", false, true)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]uint64{}
	var walk func(*etcd.Node)
	walk = func(n *etcd.Node) {
		out[n.Key] = n.ModifiedIndex
		for _, c := range n.Nodes {
			walk(c)
		}
	}
	walk(resp.Node)
	return out
}

func diffSnapshots(before, after map[string]uint64) string {
	var lines []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			lines = append(lines, "gone: "+k)
		} else if w != v {
			lines = append(lines, fmt.Sprintf("rewritten: %s (%d -> %d)", k, v, w))
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			lines = append(lines, "new: "+k)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// seedObjects stores one object of each writable resource, for the bad
// requests to aim at.
func (s *realServer) seedObjects(t *testing.T) {
	t.Helper()
	for _, seed := range []struct{ resource, body string }{
		{"replicationControllers", controllerJSON("frontend", 2)},
		{"pods", podJSON("victim")},
		{"services", `{"id":"web","port":80,"selector":{"name":"frontend"}}`},
		{"endpoints", `{"id":"web","endpoints":["10.0.0.1:80"]}`},
		{"minions", `{"id":"m1","hostIP":"10.0.0.1"}`},
	} {
		code, body := s.do(t, "POST", "/api/v1beta1/"+seed.resource+"?sync=true", strings.NewReader(seed.body))
		if code != 200 {
			t.Fatalf("seeding %s: HTTP %d %s", seed.resource, code, body)
		}
	}
}

func podJSON(id string) string {
	return `{"id":"` + id + `","labels":{"name":"frontend"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"web","image":"nginx","ports":[{"containerPort":80}]}]}}}`
}

func controllerJSON(id string, replicas int) string {
	return fmt.Sprintf(`{"id":%q,"desiredState":{"replicas":%d,"replicaSelector":{"name":"frontend"},`+
		`"podTemplate":{"labels":{"name":"frontend"},"desiredState":{"manifest":{"version":"v1beta1",`+
		`"containers":[{"name":"web","image":"nginx"}]}}}}}`, id, replicas)
}

func allBadInputs() []badInput {
	var all []badInput
	all = append(all, evilInputs()...)
	all = append(all, badIDInputs()...)
	all = append(all, malformedInputs()...)
	all = append(all, invalidObjects()...)
	return all
}

// TestNoMalformedOrHostileRequestGetsA5xxOrWritesAnything sends every bad
// input to the real apiserver and storage. Each must get a 4xx Status
// naming the problem, promptly, and leave every etcd key as it was; and
// afterwards every resource must still list, which one hostile pod id was
// enough to break for good in 2014.
func TestNoMalformedOrHostileRequestGetsA5xxOrWritesAnything(t *testing.T) {
	s := startRealServer(t)
	s.seedObjects(t)
	inputs := allBadInputs()
	names := map[string]bool{}
	for _, c := range inputs {
		if names[c.name] {
			t.Fatalf("two cases named %q", c.name)
		}
		names[c.name] = true
	}
	for _, c := range inputs {
		t.Run(c.name, func(t *testing.T) {
			before := s.snapshot(t)
			var body io.Reader = strings.NewReader(c.body)
			if c.bodyReader != nil {
				body = c.bodyReader()
			}
			code, out := s.do(t, c.method, c.path, body, c.header...)
			if code >= 500 || code != c.code {
				t.Errorf("HTTP %d, want %d: %.300s", code, c.code, out)
			}
			var status api.Status
			if err := api.DecodeInto(out, &status); err != nil {
				t.Fatalf("the answer is not a Status: %v: %.300s", err, out)
			}
			if status.Status != api.StatusFailure || status.Code != code || status.Reason == "" {
				t.Errorf("Status %q code %d reason %q for HTTP %d", status.Status, status.Code, status.Reason, code)
			}
			if !strings.Contains(status.Message, c.mention) {
				t.Errorf("message %.300q does not mention %q", status.Message, c.mention)
			}
			if diff := diffSnapshots(before, s.snapshot(t)); diff != "" {
				t.Errorf("etcd changed:\n%s", diff)
			}
		})
	}
	t.Logf("%d bad inputs tried", len(inputs))
	for _, resource := range []string{"pods", "replicationControllers", "services", "endpoints", "minions"} {
		code, out := s.do(t, "GET", "/api/v1beta1/"+resource, nil)
		if code != 200 {
			t.Errorf("LIST %s after the bad inputs: HTTP %d %.300s", resource, code, out)
		}
		obj, err := api.Decode(out)
		if err != nil || !strings.HasSuffix(api.KindOf(obj), "List") {
			t.Errorf("LIST %s: %v %.300s", resource, err, out)
		}
	}
}
