package apiserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

func TestSupportPagesAnswer(t *testing.T) {
	ts := newTestServer(t, Options{})

	resp, body := ts.do(t, "GET", "/healthz", "")
	if resp.StatusCode != 200 || string(body) != "ok" {
		t.Errorf("/healthz = %d %q, want 200 ok", resp.StatusCode, body)
	}

	resp, body = ts.do(t, "GET", "/version", "")
	var version map[string]string
	if err := json.Unmarshal(body, &version); err != nil || resp.StatusCode != 200 {
		t.Fatalf("/version = %d %s (%v)", resp.StatusCode, body, err)
	}
	for _, key := range []string{"major", "minor", "gitVersion", "gitCommit", "gitTreeState"} {
		if _, ok := version[key]; !ok {
			t.Errorf("/version lacks %q: %s", key, body)
		}
	}
	if version["major"] != "0" || version["minor"] != "4" || !strings.Contains(version["emulation"], "kube-rewind") {
		t.Errorf("/version = %s, want v0.4 numbers and the emulation note", body)
	}

	for _, path := range []string{"/", "/index.html"} {
		resp, body = ts.do(t, "GET", path, "")
		if resp.StatusCode != 200 || !strings.Contains(string(body), "Welcome to kube-rewind") {
			t.Errorf("%s = %d %s", path, resp.StatusCode, body)
		}
	}

	ts.do(t, "GET", "/api/v1beta1/simple", "")
	resp, body = ts.do(t, "GET", "/metrics", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "apiserver_request_total") {
		t.Errorf("/metrics = %d, without apiserver_request_total:\n%s", resp.StatusCode, body)
	}

	resp, body = ts.do(t, "GET", "/nothing/here", "")
	if resp.StatusCode != 404 || !strings.Contains(decodeStatus(t, body).Message, "/nothing/here") {
		t.Errorf("/nothing/here = %d %s, want a 404 Status naming the path", resp.StatusCode, body)
	}
}

func TestVersionComesFromOptions(t *testing.T) {
	ts := newTestServer(t, Options{Version: &VersionInfo{Major: "9", Minor: "9", GitVersion: "v9.9"}})
	_, body := ts.do(t, "GET", "/version", "")
	if !strings.Contains(string(body), `"gitVersion":"v9.9"`) {
		t.Errorf("/version = %s", body)
	}
}

// badRequests lists requests a client can get wrong, with the Status each
// must get. None may reach the storage's write methods.
var badRequests = []struct {
	name         string
	method, path string
	body         string
	header       []string
	code         int
	reason       api.StatusReason
	// mention is a piece of the message naming the problem.
	mention string
}{
	{"unknown resource", "GET", "/api/v1beta1/nope", "", nil, 404, api.StatusReasonNotFound, `"nope"`},
	{"create in an unknown resource", "POST", "/api/v1beta1/nope", `{"id":"a"}`, nil, 404, api.StatusReasonNotFound, `"nope"`},
	{"no resource", "GET", "/api/v1beta1", "", nil, 404, api.StatusReasonNotFound, "name a resource"},
	{"no resource, trailing slash", "GET", "/api/v1beta1/", "", nil, 404, api.StatusReasonNotFound, "simple"},
	{"extra segment on get", "GET", "/api/v1beta1/simple/a/b", "", nil, 404, api.StatusReasonNotFound, "/api/v1beta1/simple/a/b"},
	{"extra segment on delete", "DELETE", "/api/v1beta1/simple/a/b", "", nil, 404, api.StatusReasonNotFound, "/api/v1beta1/simple/a/b"},
	{"dot-dot segment", "GET", "/api/v1beta1/simple/../simple", "", nil, 404, api.StatusReasonNotFound, ".."},
	{"empty segment", "GET", "/api/v1beta1//simple", "", nil, 404, api.StatusReasonNotFound, "//simple"},
	{"PATCH an object", "PATCH", "/api/v1beta1/simple/a", `{}`, nil, 405, api.StatusReasonMethodNotAllowed, "PATCH"},
	{"PATCH the collection", "PATCH", "/api/v1beta1/simple", `{}`, nil, 405, api.StatusReasonMethodNotAllowed, "PATCH"},
	{"POST with an id", "POST", "/api/v1beta1/simple/a", `{"id":"a"}`, nil, 405, api.StatusReasonMethodNotAllowed, "POST creates in the collection"},
	{"PUT without an id", "PUT", "/api/v1beta1/simple", `{"id":"a"}`, nil, 405, api.StatusReasonMethodNotAllowed, "need an id"},
	{"DELETE without an id", "DELETE", "/api/v1beta1/simple", "", nil, 405, api.StatusReasonMethodNotAllowed, "need an id"},
	{"watch without a resource", "GET", "/api/v1beta1/watch", "", nil, 404, api.StatusReasonNotFound, "name a resource to watch"},
	{"watch without a resource, trailing slash", "GET", "/api/v1beta1/watch/", "", nil, 404, api.StatusReasonNotFound, "name a resource to watch"},
	{"watch an unknown resource", "GET", "/api/v1beta1/watch/nope", "", nil, 404, api.StatusReasonNotFound, `"nope"`},
	{"watch with an extra segment", "GET", "/api/v1beta1/watch/simple/a", "", nil, 404, api.StatusReasonNotFound, "too many segments"},
	{"POST to a watch", "POST", "/api/v1beta1/watch/simple", `{}`, nil, 405, api.StatusReasonMethodNotAllowed, "POST"},
	{"watch an unwatchable resource", "GET", "/api/v1beta1/watch/unwatchable", "", nil, 405, api.StatusReasonMethodNotAllowed, "watch is not supported on unwatchable"},
	{"POST to operations", "POST", "/api/v1beta1/operations", `{}`, nil, 405, api.StatusReasonMethodNotAllowed, "read-only"},
	{"DELETE an operation", "DELETE", "/api/v1beta1/operations/1", "", nil, 405, api.StatusReasonMethodNotAllowed, "read-only"},
	{"unknown operation", "GET", "/api/v1beta1/operations/999", "", nil, 404, api.StatusReasonNotFound, `operation "999" not found`},
	{"operation with an extra segment", "GET", "/api/v1beta1/operations/1/x", "", nil, 404, api.StatusReasonNotFound, "too many segments"},
	{"malformed JSON", "POST", "/api/v1beta1/simple", `{"id":`, nil, 400, api.StatusReasonBadRequest, "not a valid Simple"},
	{"malformed YAML", "POST", "/api/v1beta1/simple", "id: [a\nname: b", nil, 400, api.StatusReasonBadRequest, "not a valid Simple"},
	{"a JSON array", "POST", "/api/v1beta1/simple", `[1,2]`, nil, 400, api.StatusReasonBadRequest, "not an object"},
	{"a field of the wrong type", "POST", "/api/v1beta1/simple", `{"id":"a","name":7}`, nil, 400, api.StatusReasonBadRequest, "name"},
	{"empty body", "POST", "/api/v1beta1/simple", "", nil, 400, api.StatusReasonBadRequest, "empty body"},
	{"wrong kind", "POST", "/api/v1beta1/simple", `{"kind":"Pod","id":"a"}`, nil, 400, api.StatusReasonBadRequest, "data of kind 'Pod'"},
	{"wrong apiVersion", "POST", "/api/v1beta1/simple", `{"apiVersion":"v1","id":"a"}`, nil, 400, api.StatusReasonBadRequest, "apiVersion 'v1'"},
	{"wrong kind on update", "PUT", "/api/v1beta1/simple/a", `{"kind":"Service","id":"a"}`, nil, 400, api.StatusReasonBadRequest, "data of kind 'Service'"},
	{"malformed update", "PUT", "/api/v1beta1/simple/a", `{{`, nil, 400, api.StatusReasonBadRequest, "not a valid Simple"},
	{"path and body ids differ", "PUT", "/api/v1beta1/simple/a", `{"id":"b"}`, nil, 400, api.StatusReasonBadRequest, `path ("a") and the id in the body ("b")`},
	{"plain text body", "POST", "/api/v1beta1/simple", `{"id":"a"}`, []string{"Content-Type", "text/plain"}, 415, api.StatusReasonUnsupportedMediaType, `"text/plain"`},
	{"form body", "PUT", "/api/v1beta1/simple/a", `{"id":"a"}`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, api.StatusReasonUnsupportedMediaType, "form-urlencoded"},
	{"garbled content type", "POST", "/api/v1beta1/simple", `{"id":"a"}`, []string{"Content-Type", ";;;"}, 415, api.StatusReasonUnsupportedMediaType, `";;;"`},
	{"body over the limit", "POST", "/api/v1beta1/simple", `{"id":"a","name":"` + strings.Repeat("x", 2048) + `"}`, nil, 413, api.StatusReasonRequestEntityTooLarge, "1024 bytes"},
	{"unparsable timeout", "POST", "/api/v1beta1/simple?sync=true&timeout=soon", `{"id":"a"}`, nil, 400, api.StatusReasonBadRequest, `timeout "soon"`},
	{"negative timeout", "DELETE", "/api/v1beta1/simple/a?timeout=-5s", "", nil, 400, api.StatusReasonBadRequest, "negative"},
	{"malformed label selector", "GET", "/api/v1beta1/simple?labels=garbage", "", nil, 400, api.StatusReasonBadRequest, "labels="},
	{"malformed field selector", "GET", "/api/v1beta1/simple?fields=a%3D%3Db%3D%3Dc", "", nil, 400, api.StatusReasonBadRequest, "fields="},
	{"malformed watch selector", "GET", "/api/v1beta1/watch/simple?labels=x%3Da%7C%7Cy%3Db", "", nil, 400, api.StatusReasonBadRequest, "labels="},
	{"malformed query escape", "GET", "/api/v1beta1/simple?labels=%zz", "", nil, 400, api.StatusReasonBadRequest, "malformed query"},
	{"semicolon in a write's query", "POST", "/api/v1beta1/simple?sync=true;timeout=1s", `{"id":"a"}`, nil, 400, api.StatusReasonBadRequest, "malformed query"},
	{"malformed watch query", "GET", "/api/v1beta1/watch/simple?resourceVersion=%", "", nil, 400, api.StatusReasonBadRequest, "malformed query"},
	{"non-numeric resourceVersion", "GET", "/api/v1beta1/watch/simple?resourceVersion=abc", "", nil, 400, api.StatusReasonBadRequest, `resourceVersion "abc"`},
	{"negative resourceVersion", "GET", "/api/v1beta1/watch/simple?resourceVersion=-1", "", nil, 400, api.StatusReasonBadRequest, `resourceVersion "-1"`},
}

func TestBadRequestsGetAStatusNamingTheProblemAndWriteNothing(t *testing.T) {
	ts := newTestServer(t, Options{MaxRequestBytes: 1024})
	for _, c := range badRequests {
		t.Run(c.name, func(t *testing.T) {
			resp, body := ts.do(t, c.method, c.path, c.body, c.header...)
			if resp.StatusCode != c.code {
				t.Fatalf("HTTP %d, want %d: %s", resp.StatusCode, c.code, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
			status := decodeStatus(t, body)
			if status.Code != c.code || status.Reason != c.reason || status.Status != api.StatusFailure {
				t.Errorf("Status code %d reason %q status %q, want %d %q Failure", status.Code, status.Reason, status.Status, c.code, c.reason)
			}
			if !strings.Contains(status.Message, c.mention) {
				t.Errorf("message %q does not mention %q", status.Message, c.mention)
			}
			if c.code == 405 && resp.Header.Get("Allow") == "" && !strings.Contains(c.name, "unwatchable") {
				t.Errorf("405 without an Allow header")
			}
			if n := ts.storage.writeCount(); n != 0 {
				t.Errorf("the storage saw %d writes", n)
			}
		})
	}
}

// TestAnOversizedBodyIsRefusedWithoutBeingReadInFull sends a body with no
// Content-Length that would never end: the 413 can only come if the server
// stops reading at the limit.
func TestAnOversizedBodyIsRefusedWithoutBeingReadInFull(t *testing.T) {
	ts := newTestServer(t, Options{MaxRequestBytes: 1024})
	endless := io.MultiReader(strings.NewReader(`{"id":"a","name":"`), infiniteReader{})
	req, err := http.NewRequest("POST", ts.http.URL+"/api/v1beta1/simple", endless)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || decodeStatus(t, body).Reason != api.StatusReasonRequestEntityTooLarge {
		t.Errorf("HTTP %d %s, want 413", resp.StatusCode, body)
	}
	if n := ts.storage.writeCount(); n != 0 {
		t.Errorf("the storage saw %d writes", n)
	}
}

type infiniteReader struct{}

func (infiniteReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestPanicsBecomeA500StatusAndTheServerGoesOn(t *testing.T) {
	for _, where := range []string{"list", "get", "create", "work"} {
		t.Run(where, func(t *testing.T) {
			ts := newTestServer(t, Options{})
			ts.storage.panicIn = where
			method, path, body := "GET", "/api/v1beta1/simple", ""
			switch where {
			case "get":
				path += "/a"
			case "create", "work":
				method, body = "POST", `{"id":"a"}`
				path += "?sync=true"
			}
			resp, out := ts.do(t, method, path, body)
			if resp.StatusCode != 500 {
				t.Fatalf("HTTP %d, want 500: %s", resp.StatusCode, out)
			}
			if status := decodeStatus(t, out); status.Reason != api.StatusReasonInternalError || status.Code != 500 {
				t.Errorf("Status = %+v", status)
			}
			ts.storage.mu.Lock()
			ts.storage.panicIn = ""
			ts.storage.mu.Unlock()
			if resp, out := ts.do(t, "GET", "/api/v1beta1/simple", ""); resp.StatusCode != 200 {
				t.Errorf("after the panic: HTTP %d %s", resp.StatusCode, out)
			}
		})
	}
}

func TestReservedNamesAreNotServedAsResources(t *testing.T) {
	s := newAPIServer(map[string]RESTStorage{"watch": newSimpleStorage(), "a/b": newSimpleStorage(), "ok": newSimpleStorage()}, "", Options{})
	if got := fmt.Sprint(s.resources); got != "[ok]" {
		t.Errorf("resources = %s, want [ok]", got)
	}
	if s.prefix != DefaultPrefix {
		t.Errorf("prefix = %q, want %q", s.prefix, DefaultPrefix)
	}
}
