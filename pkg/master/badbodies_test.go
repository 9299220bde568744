package master

import (
	"io"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
)

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
		{name: "a body that stalls halfway", method: "POST", path: pods, bodyReader: func() io.Reader { return io.MultiReader(strings.NewReader(`{"id":`), stall{3 * bodyReadTimeout}) }, code: 408, mention: "did not arrive"},
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
