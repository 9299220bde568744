package master

import (
	"context"
	"encoding/json"
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

func startRealServer(t *testing.T) *realServer {
	t.Helper()
	helper := rt.NewHelper(t, etcdURL)
	srv := httptest.NewServer(apiserver.Handle(NewStorage(helper), apiserver.DefaultPrefix, apiserver.Options{BodyReadTimeout: time.Second}))
	t.Cleanup(srv.Close)
	return &realServer{url: srv.URL, helper: helper, client: srv.Client()}
}

// do sends one request and returns the code and body; it fails t if no
// answer comes within 10 s.
func (s *realServer) do(t *testing.T, method, path string, body io.Reader, header ...string) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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

// badInput is one malformed or hostile request and what it must get.
type badInput struct {
	name         string
	method, path string
	body         string
	// bodyReader, when set, replaces body (for bodies too big to spell).
	bodyReader func() io.Reader
	header     []string
	code       int
	// mention is a piece of the Status message naming the problem.
	mention string
}

// writableResources are the resources that take a body, with a valid body
// for each whose id is the given one.
var writableResources = []struct {
	resource string
	body     func(id string) string
}{
	{"pods", podJSON},
	{"replicationControllers", func(id string) string { return controllerJSON(id, 1) }},
	{"services", func(id string) string { return `{"id":"` + id + `","port":80,"selector":{"name":"frontend"}}` }},
	{"endpoints", func(id string) string { return `{"id":"` + id + `","endpoints":["10.0.0.1:80"]}` }},
	{"minions", func(id string) string { return `{"id":"` + id + `"}` }},
}

// existing names the seeded object of each resource.
var existing = map[string]string{
	"pods": "victim", "replicationControllers": "frontend", "services": "web", "endpoints": "web", "minions": "m1",
}

// evilInputs aims the id that broke the 2014 cluster at every resource and
// verb: in a body, in the path as it is and escaped, and as a bare "..".
func evilInputs() []badInput {
	const evil = "../controllers/evil"
	var out []badInput
	for _, w := range writableResources {
		r := w.resource
		base := "/api/v1beta1/" + r
		createCode := 422
		out = append(out,
			badInput{name: "create " + r + " " + evil, method: "POST", path: base, body: w.body(evil), code: createCode, mention: evil},
			badInput{name: "get " + r + " with an escaped " + evil, method: "GET", path: base + "/..%2Fcontrollers%2Fevil", code: 404, mention: "does not name a resource or an object"},
			badInput{name: "delete " + r + " " + evil, method: "DELETE", path: base + "/" + evil, code: 404, mention: "does not name a resource or an object"},
			badInput{name: "update " + r + " with an escaped " + evil, method: "PUT", path: base + "/..%2Fcontrollers%2Fevil", body: w.body(evil), code: 404, mention: "does not name a resource or an object"},
			badInput{name: "update " + r + " to " + evil, method: "PUT", path: base + "/" + existing[r], body: w.body(evil), code: 400, mention: `the id in the body ("../controllers/evil")`},
			badInput{name: "get " + r + " ..", method: "GET", path: base + "/..", code: 400, mention: `id ".." is not valid`},
			badInput{name: "delete " + r + " ..", method: "DELETE", path: base + "/..", code: 400, mention: `id ".." is not valid`},
		)
	}
	out = append(out,
		badInput{name: "bind the pod " + evil, method: "POST", path: "/api/v1beta1/bindings", body: `{"podID":"` + evil + `","host":"m1"}`, code: 422, mention: evil},
		badInput{name: "bind a pod to the host " + evil, method: "POST", path: "/api/v1beta1/bindings", body: `{"podID":"victim","host":"` + evil + `"}`, code: 422, mention: evil},
		badInput{name: "watch the service " + evil, method: "GET", path: "/api/v1beta1/watch/services?fields=ID%3D..%2Fcontrollers%2Fevil", code: 400, mention: evil},
		badInput{name: "watch the endpoints " + evil, method: "GET", path: "/api/v1beta1/watch/endpoints?fields=ID%3D..%2Fcontrollers%2Fevil", code: 400, mention: evil},
		badInput{name: evil + " spelled with unicode escapes", method: "POST", path: "/api/v1beta1/pods", body: `{"id":"\u002e\u002e\u002fcontrollers\u002fevil"}`, code: 422, mention: evil},
	)
	return out
}

// badIDs are ids each resource must refuse, created through a body.
func badIDInputs() []badInput {
	var out []badInput
	ids := []struct{ what, id string }{
		{"with a slash", "a/b"},
		{"with an escaped slash", "a%2Fb"},
		{"with a space", "with space"},
		{"non-ASCII", "naïve"},
		{"300 characters long", strings.Repeat("a", 300)},
		{"with a NUL", "a\u0000b"},
		{"with a query", "x?recursive=true"},
	}
	for _, w := range writableResources {
		for _, id := range ids {
			raw, _ := json.Marshal(id.id)
			body := strings.Replace(w.body("PLACEHOLDER"), `"PLACEHOLDER"`, string(raw), 1)
			out = append(out, badInput{name: w.resource + " id " + id.what, method: "POST", path: "/api/v1beta1/" + w.resource, body: body, code: 422, mention: "id: invalid value"})
		}
	}
	out = append(out,
		badInput{name: "pod id in upper case", method: "POST", path: "/api/v1beta1/pods", body: podJSON("Victim2"), code: 422, mention: "id: invalid value 'Victim2'"},
		badInput{name: "service id in upper case", method: "POST", path: "/api/v1beta1/services", body: `{"id":"Web2","port":80,"selector":{"a":"b"}}`, code: 422, mention: "id: invalid value 'Web2'"},
		badInput{name: "service id longer than 24", method: "POST", path: "/api/v1beta1/services", body: `{"id":"abcdefghijklmnopqrstuvwxy","port":80,"selector":{"a":"b"}}`, code: 422, mention: "abcdefghijklmnopqrstuvwxy"},
		badInput{name: "service without an id", method: "POST", path: "/api/v1beta1/services", body: `{"port":80,"selector":{"a":"b"}}`, code: 422, mention: "id: required value"},
		badInput{name: "service id null", method: "POST", path: "/api/v1beta1/services", body: `{"id":null,"port":80,"selector":{"a":"b"}}`, code: 422, mention: "id: required value"},
		badInput{name: "endpoints without an id", method: "POST", path: "/api/v1beta1/endpoints", body: `{"endpoints":["10.0.0.1:80"]}`, code: 422, mention: "id: required value"},
		badInput{name: "delete with an empty id", method: "DELETE", path: "/api/v1beta1/pods/", code: 405, mention: "need an id"},
		badInput{name: "update with an empty id", method: "PUT", path: "/api/v1beta1/services/", body: `{"id":"web","port":80,"selector":{"a":"b"}}`, code: 405, mention: "need an id"},
		badInput{name: "get a pod whose id is 300 characters", method: "GET", path: "/api/v1beta1/pods/" + strings.Repeat("a", 300), code: 400, mention: "is not valid"},
		badInput{name: "get a controller named with a dot-dot inside", method: "GET", path: "/api/v1beta1/replicationControllers/a..b", code: 400, mention: `"a..b" is not valid`},
		badInput{name: "get a pod named with a space", method: "GET", path: "/api/v1beta1/pods/with%20space", code: 400, mention: `"with space"`},
		badInput{name: "get a pod named in non-ASCII", method: "GET", path: "/api/v1beta1/pods/na%C3%AFve", code: 400, mention: `"naïve"`},
		badInput{name: "delete a controller named with a NUL", method: "DELETE", path: "/api/v1beta1/replicationControllers/a%00b", code: 400, mention: `is not valid`},
	)
	return out
}

// malformedInputs are bodies, queries and headers that are wrong in form.
func malformedInputs() []badInput {
	pods := "/api/v1beta1/pods"
	rcs := "/api/v1beta1/replicationControllers"
	huge := func() io.Reader {
		return io.MultiReader(strings.NewReader(`{"id":"big","labels":{"x":"`), strings.NewReader(strings.Repeat("x", apiserver.DefaultMaxRequestBytes)), strings.NewReader(`"}}`))
	}
	return []badInput{
		{name: "truncated JSON", method: "POST", path: pods, body: `{"id":`, code: 400, mention: "not a valid Pod"},
		{name: "malformed YAML", method: "POST", path: rcs, body: "id: [a\nlabels: b", code: 400, mention: "not a valid ReplicationController"},
		{name: "JSON with a second object after it", method: "POST", path: "/api/v1beta1/services", body: `{"id":"s","port":80,"selector":{"a":"b"}} {"id":"t"}`, code: 400, mention: "data after the object"},
		{name: "JSON with trailing garbage", method: "POST", path: pods, body: podJSON("trailing") + ` garbage`, code: 400, mention: "data after the object"},
		{name: "a second YAML document", method: "POST", path: "/api/v1beta1/minions", body: "id: m7\n---\nid: m8\n", code: 400, mention: "second YAML document"},
		{name: "deeply nested object", method: "POST", path: pods, body: strings.Repeat(`{"a":`, 100000), code: 400, mention: "depth"},
		{name: "deeply nested array", method: "POST", path: rcs, body: strings.Repeat(`[`, 1000000), code: 400, mention: "depth"},
		{name: "YAML alias bomb", method: "POST", path: pods, body: "a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n", code: 400, mention: "aliasing"},
		{name: "null body", method: "POST", path: pods, body: `null`, code: 400, mention: "not an object"},
		{name: "null body on update", method: "PUT", path: pods + "/victim", body: `null`, code: 400, mention: "not an object"},
		{name: "empty body", method: "POST", path: rcs, body: ``, code: 400, mention: "empty body"},
		{name: "blank body", method: "PUT", path: rcs + "/frontend", body: " \n\t ", code: 400, mention: "empty body"},
		{name: "JSON array instead of an object", method: "POST", path: pods, body: `[` + podJSON("inarray") + `]`, code: 400, mention: "not an object"},
		{name: "JSON string instead of an object", method: "POST", path: pods, body: `"victim"`, code: 400, mention: "not an object"},
		{name: "JSON number instead of an object", method: "POST", path: "/api/v1beta1/minions", body: `42`, code: 400, mention: "not an object"},
		{name: "duplicate key", method: "POST", path: pods, body: `{"id":"dup-a","id":"dup-b","desiredState":{"manifest":{"version":"v1beta1"}}}`, code: 400, mention: `key "id" appears twice`},
		{name: "duplicate key in YAML", method: "POST", path: "/api/v1beta1/services", body: "id: s1\nid: s2\nport: 80\nselector: {a: b}\n", code: 400, mention: "appears twice"},
		{name: "duplicate label", method: "PUT", path: pods + "/victim", body: `{"id":"victim","resourceVersion":1,"labels":{"name":"a","name":"b"}}`, code: 400, mention: `key "name" appears twice in labels`},
		{name: "wrong kind", method: "POST", path: pods, body: `{"kind":"Service","id":"s","port":80}`, code: 400, mention: "data of kind 'Service', obj of type 'Pod'"},
		{name: "wrong kind on update", method: "PUT", path: "/api/v1beta1/services/web", body: `{"kind":"Pod","id":"web"}`, code: 400, mention: "data of kind 'Pod'"},
		{name: "a body of kind List", method: "POST", path: pods, body: `{"kind":"List","items":[` + podJSON("listed") + `]}`, code: 400, mention: "data of kind 'List'"},
		{name: "a body of kind PodList", method: "POST", path: pods, body: `{"kind":"PodList","items":[` + podJSON("listed") + `]}`, code: 400, mention: "data of kind 'PodList'"},
		{name: "wrong apiVersion", method: "POST", path: rcs, body: `{"apiVersion":"v1","id":"rc"}`, code: 400, mention: "apiVersion 'v1'"},
		{name: "a later apiVersion on update", method: "PUT", path: rcs + "/frontend", body: `{"apiVersion":"v1beta3","id":"frontend"}`, code: 400, mention: "apiVersion 'v1beta3'"},
		{name: "unicode escape of a NUL in a label", method: "POST", path: pods, body: strings.Replace(podJSON("nul-label"), `"name":"frontend"`, `"na\u0000me":"frontend"`, 1), code: 422, mention: "labels"},
		{name: "text/plain body", method: "POST", path: pods, body: podJSON("plain"), header: []string{"Content-Type", "text/plain"}, code: 415, mention: `"text/plain"`},
		{name: "multipart body", method: "PUT", path: pods + "/victim", body: podJSON("victim"), header: []string{"Content-Type", "multipart/form-data; boundary=x"}, code: 415, mention: "multipart/form-data"},
		{name: "garbled content type", method: "POST", path: rcs, body: controllerJSON("garbled", 1), header: []string{"Content-Type", ";;;"}, code: 415, mention: `";;;"`},
		{name: "body over the limit, declared", method: "POST", path: pods, bodyReader: huge, code: 413, mention: "bytes"},
		{name: "an object six times its body once encoded", method: "POST", path: pods + "?sync=true", body: strings.Replace(podJSON("angles"), `"id":"angles"`, `"id":"angles","annotations":{"x":"`+strings.Repeat("<", 600<<10)+`"}`, 1), code: 413, mention: "once encoded"},
		{name: "body over the limit, chunked", method: "POST", path: pods, bodyReader: func() io.Reader { return struct{ io.Reader }{huge()} }, code: 413, mention: "bytes"},
		{name: "a body that stalls halfway", method: "POST", path: pods, bodyReader: func() io.Reader { return io.MultiReader(strings.NewReader(`{"id":`), stall{5 * time.Second}) }, code: 408, mention: "did not arrive"},
		{name: "unknown resource", method: "GET", path: "/api/v1beta1/nodes", code: 404, mention: `no resource "nodes"`},
		{name: "unknown resource on create", method: "POST", path: "/api/v1beta1/secrets", body: `{"id":"a"}`, code: 404, mention: `no resource "secrets"`},
		{name: "resource name in another case", method: "GET", path: "/api/v1beta1/Pods", code: 404, mention: `"Pods"`},
		{name: "PATCH", method: "PATCH", path: pods + "/victim", body: `{}`, code: 405, mention: "PATCH"},
		{name: "OPTIONS", method: "OPTIONS", path: pods, code: 405, mention: "OPTIONS"},
		{name: "POST to an object", method: "POST", path: pods + "/victim", body: podJSON("victim"), code: 405, mention: "POST creates in the collection"},
		{name: "DELETE the collection", method: "DELETE", path: rcs, code: 405, mention: "need an id"},
		{name: "extra path segment", method: "GET", path: pods + "/victim/status", code: 404, mention: "does not name a resource or an object"},
		{name: "watch a resource that cannot be watched", method: "GET", path: "/api/v1beta1/watch/minions", code: 405, mention: "watch"},
		{name: "non-numeric resourceVersion on watch", method: "GET", path: "/api/v1beta1/watch/pods?resourceVersion=abc", code: 400, mention: `resourceVersion "abc"`},
		{name: "negative resourceVersion on watch", method: "GET", path: "/api/v1beta1/watch/replicationControllers?resourceVersion=-1", code: 400, mention: `resourceVersion "-1"`},
		{name: "resourceVersion beyond 64 bits on watch", method: "GET", path: "/api/v1beta1/watch/pods?resourceVersion=99999999999999999999", code: 400, mention: "99999999999999999999"},
		{name: "negative resourceVersion in a body", method: "PUT", path: pods + "/victim", body: `{"id":"victim","resourceVersion":-1}`, code: 400, mention: "resourceVersion"},
		{name: "string resourceVersion in a body", method: "PUT", path: rcs + "/frontend", body: `{"id":"frontend","resourceVersion":"7"}`, code: 400, mention: "resourceVersion"},
		{name: "stale resourceVersion", method: "PUT", path: "/api/v1beta1/services/web", body: `{"id":"web","resourceVersion":1,"port":81,"selector":{"name":"frontend"}}`, code: 409, mention: `service "web" cannot be updated`},
		{name: "resourceVersion from the future", method: "PUT", path: pods + "/victim", body: strings.Replace(podJSON("victim"), `"id":"victim"`, `"id":"victim","resourceVersion":18446744073709551615`, 1), code: 409, mention: `pod "victim" cannot be updated`},
		{name: "update without a resourceVersion", method: "PUT", path: "/api/v1beta1/services/web", body: `{"id":"web","port":81,"selector":{"name":"frontend"}}`, code: 409, mention: `service "web" cannot be updated`},
		{name: "create with a resourceVersion", method: "POST", path: pods, body: strings.Replace(podJSON("versioned"), `"id":"versioned"`, `"id":"versioned","resourceVersion":5`, 1), code: 422, mention: "resourceVersion"},
		{name: "malformed label selector", method: "GET", path: pods + "?labels=garbage", code: 400, mention: "labels="},
		{name: "label selector with a doubled operator", method: "GET", path: rcs + "?labels=x%3D%3Da%3D%3Db", code: 400, mention: "x==a==b"},
		{name: "ambiguous selector key", method: "GET", path: "/api/v1beta1/watch/pods?labels=a%21%3D%3Db", code: 400, mention: "a!==b"},
		{name: "malformed field selector", method: "GET", path: "/api/v1beta1/services?fields=nope", code: 400, mention: "fields="},
		{name: "label selector on a service watch", method: "GET", path: "/api/v1beta1/watch/services?labels=a%3Db", code: 400, mention: "label"},
		{name: "malformed query escape", method: "GET", path: pods + "?labels=%zz", code: 400, mention: "malformed query"},
		{name: "unparsable timeout", method: "POST", path: pods + "?sync=true&timeout=soon", body: podJSON("timeout"), code: 400, mention: `timeout "soon"`},
	}
}

// stall is a body that sends nothing for d, then ends.
type stall struct{ d time.Duration }

func (s stall) Read([]byte) (int, error) {
	time.Sleep(s.d)
	return 0, io.EOF
}

// invalidObjects are well-formed bodies that validation must refuse.
func invalidObjects() []badInput {
	pods := "/api/v1beta1/pods"
	rcs := "/api/v1beta1/replicationControllers"
	rc := func(replicas string) string {
		return `{"id":"bad","desiredState":{"replicas":` + replicas + `,"replicaSelector":{"name":"frontend"},"podTemplate":{"labels":{"name":"frontend"},"desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"web","image":"nginx"}]}}}}}`
	}
	return []badInput{
		{name: "negative replicas", method: "POST", path: rcs, body: rc("-1"), code: 422, mention: "desiredState.replicas: invalid value '-1'"},
		{name: "absurd replicas", method: "POST", path: rcs, body: rc("2147483648"), code: 422, mention: "desiredState.replicas: invalid value '2147483648'"},
		{name: "replicas beyond 64 bits", method: "POST", path: rcs, body: rc("99999999999999999999"), code: 400, mention: "replicas"},
		{name: "replicas as a huge float", method: "POST", path: rcs, body: rc("1e400"), code: 400, mention: "1e400"},
		{name: "fractional replicas", method: "POST", path: rcs, body: rc("1.5"), code: 400, mention: "replicas"},
		{name: "replicas as a string", method: "POST", path: rcs, body: rc(`"3"`), code: 400, mention: "replicas"},
		{name: "resize to negative replicas", method: "PUT", path: rcs + "/frontend", body: strings.Replace(controllerJSON("frontend", -5), `"id":"frontend"`, `"id":"frontend","resourceVersion":1`, 1), code: 422, mention: "desiredState.replicas: invalid value '-5'"},
		{name: "selector not matching the template", method: "POST", path: rcs, body: strings.Replace(rc("1"), `"replicaSelector":{"name":"frontend"}`, `"replicaSelector":{"name":"backend"}`, 1), code: 422, mention: "desiredState.podTemplate.labels"},
		{name: "controller without a selector", method: "POST", path: rcs, body: strings.Replace(rc("1"), `"replicaSelector":{"name":"frontend"},`, "", 1), code: 422, mention: "desiredState.replicaSelector: required value"},
		{name: "controller with a null desired state", method: "POST", path: rcs, body: `{"id":"bad","desiredState":null}`, code: 422, mention: "desiredState.replicaSelector: required value"},
		{name: "template without a manifest version", method: "POST", path: rcs, body: strings.Replace(rc("1"), `"version":"v1beta1",`, "", 1), code: 422, mention: "desiredState.podTemplate.desiredState.manifest.version: required value"},
		{name: "pod without a manifest version", method: "POST", path: pods, body: `{"id":"nover","desiredState":{"manifest":{"containers":[{"name":"a","image":"b"}]}}}`, code: 422, mention: "desiredState.manifest.version: required value"},
		{name: "container without an image", method: "POST", path: pods, body: `{"id":"noimage","desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"a"}]}}}`, code: 422, mention: "containers[0].image: required value"},
		{name: "container port out of range", method: "POST", path: pods, body: `{"id":"port","desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"a","image":"b","ports":[{"containerPort":70000}]}]}}}`, code: 422, mention: "containerPort: invalid value '70000'"},
		{name: "newline in a label value", method: "POST", path: pods, body: strings.Replace(podJSON("nllabel"), `"name":"frontend"`, `"name":"a\nb"`, 1), code: 422, mention: "labels[name]"},
		{name: "terminal escape in an image", method: "POST", path: rcs, body: strings.Replace(controllerJSON("esc", 1), `"image":"nginx"`, `"image":"\u001b[2Jnginx"`, 1), code: 422, mention: "image: invalid value"},
		{name: "label key with an equals sign", method: "POST", path: pods, body: strings.Replace(podJSON("eqlabel"), `"name":"frontend"`, `"a=b":"c"`, 1), code: 422, mention: "labels: invalid value 'a=b'"},
		{name: "service without a port", method: "POST", path: "/api/v1beta1/services", body: `{"id":"noport","selector":{"a":"b"}}`, code: 422, mention: "port: invalid value '0'"},
		{name: "service without a selector", method: "POST", path: "/api/v1beta1/services", body: `{"id":"nosel","port":80}`, code: 422, mention: "selector: required value"},
		{name: "endpoint that is not host:port", method: "PUT", path: "/api/v1beta1/endpoints/web", body: `{"id":"web","endpoints":["nowhere"]}`, code: 422, mention: "endpoints[0]: invalid value 'nowhere'"},
		{name: "minion with a bad host IP", method: "POST", path: "/api/v1beta1/minions", body: `{"id":"m2","hostIP":"not-an-ip"}`, code: 422, mention: "hostIP: invalid value 'not-an-ip'"},
		{name: "binding without a host", method: "POST", path: "/api/v1beta1/bindings", body: `{"podID":"victim"}`, code: 422, mention: "host: required value"},
		{name: "creation time that cannot be written back", method: "PUT", path: pods + "/victim", body: `{"id":"victim","resourceVersion":1,"creationTimestamp":"0000-01-01T00:30:00+01:00"}`, code: 400, mention: "0000-01-01T00:30:00+01:00"},
		{name: "time that is not a time", method: "POST", path: rcs, body: `{"id":"t","creationTimestamp":"yesterday"}`, code: 400, mention: "yesterday"},
	}
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
