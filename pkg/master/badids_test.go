package master

import (
	"encoding/json"
	"io"
	"strings"
)

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
