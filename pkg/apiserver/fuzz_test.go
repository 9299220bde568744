package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// podStorage accepts any pod and hands it back: the fuzz target's storage,
// so that bodies are decoded into a real 2014 type.
type podStorage struct{}

func (podStorage) New() api.Object { return &api.Pod{} }
func (podStorage) List(api.Context, labels.Selector, labels.Selector) (api.Object, error) {
	return &api.PodList{}, nil
}
func (podStorage) Get(_ api.Context, id string) (api.Object, error) {
	return &api.Pod{TypeMeta: api.TypeMeta{ID: id}}, nil
}
func (podStorage) Delete(api.Context, string) (<-chan api.Object, error) {
	return MakeAsync(func() (api.Object, error) { return &api.Status{Status: api.StatusSuccess}, nil }), nil
}
func (podStorage) Create(_ api.Context, obj api.Object) (<-chan api.Object, error) {
	return MakeAsync(func() (api.Object, error) { return obj, nil }), nil
}
func (podStorage) Update(_ api.Context, obj api.Object) (<-chan api.Object, error) {
	return MakeAsync(func() (api.Object, error) { return obj, nil }), nil
}

// FuzzHandleRequestBody posts arbitrary bodies to create and update. Whatever
// the body, the answer is below 500 and is a JSON object: a Status for
// every error, with the HTTP code inside.
func FuzzHandleRequestBody(f *testing.F) {
	seeds := []string{
		`{"id":"a","desiredState":{"manifest":{"version":"v1beta1","containers":[{"name":"c","image":"i"}]}}}`,
		`{"kind":"Pod","apiVersion":"v1beta1","id":"a","labels":{"x":"y"}}`,
		`{"kind":"Service","id":"a"}`,
		`{"apiVersion":"v2"}`,
		"id: a\nlabels:\n  x: y\n",
		`{"id":"a",}`,
		`[]`, `null`, `"x"`, ``, `{`, "\x00\xff", `{"creationTimestamp":"yesterday"}`,
		`{"resourceVersion":-1}`, `{"desiredState":{"manifest":{"containers":[{"ports":[{"containerPort":"x"}]}]}}}`,
		"a: &a [*a, *a]\nb: *a\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	server := newAPIServer(map[string]RESTStorage{"pods": podStorage{}}, DefaultPrefix, Options{Registry: prometheus.NewRegistry(), MaxRequestBytes: 64 << 10})
	f.Fuzz(func(t *testing.T, body []byte, update bool) {
		method, path := "POST", "/api/v1beta1/pods"
		if update {
			method, path = "PUT", "/api/v1beta1/pods/a"
		}
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		rec := httptest.NewRecorder()
		server.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: HTTP %d %s", method, body, rec.Code, rec.Body)
		}
		var head struct {
			Kind       string `json:"kind"`
			APIVersion string `json:"apiVersion"`
			Code       int    `json:"code"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &head); err != nil || head.Kind == "" || head.APIVersion != api.Version {
			t.Fatalf("%s %q: answer is not an API object (%v): %s", method, body, err, rec.Body)
		}
		if rec.Code >= 400 && (head.Kind != "Status" || head.Code != rec.Code) {
			t.Fatalf("%s %q: HTTP %d with %s", method, body, rec.Code, rec.Body)
		}
	})
}
