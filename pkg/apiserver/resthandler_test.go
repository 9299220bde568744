package apiserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
)

func TestListPassesSelectorsAndSetsTheSelfLink(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.storage.list = []Simple{{TypeMeta: api.TypeMeta{ID: "a"}}, {TypeMeta: api.TypeMeta{ID: "b"}}}
	resp, body := ts.do(t, "GET", "/api/v1beta1/simple?labels=name%3Dfoo&fields=ID%21%3Da", "")
	if resp.StatusCode != 200 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	var list SimpleList
	if err := api.DecodeInto(body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 2 || list.SelfLink != "/api/v1beta1/simple" {
		t.Errorf("list = %+v", list)
	}
	if !strings.Contains(string(body), `"kind":"SimpleList","creationTimestamp":null,"selfLink":"/api/v1beta1/simple","apiVersion":"v1beta1"`) {
		t.Errorf("list header reads %s", body)
	}
	if got := ts.storage.requestedLabel.String(); got != "name=foo" {
		t.Errorf("label selector = %q", got)
	}
	if got := ts.storage.requestedField.String(); got != "ID!=a" {
		t.Errorf("field selector = %q", got)
	}
	if ts.storage.requestedNamespace != api.NamespaceDefault {
		t.Errorf("namespace = %q, want the default", ts.storage.requestedNamespace)
	}
}

func TestGetReturnsTheObjectWithItsSelfLink(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.storage.item = Simple{TypeMeta: api.TypeMeta{ID: "foo", ResourceVersion: 7}, Name: "x"}
	resp, body := ts.do(t, "GET", "/api/v1beta1/simple/foo", "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	got := decodeSimple(t, body)
	if got.ID != "foo" || got.Name != "x" || got.ResourceVersion != 7 || got.SelfLink != "/api/v1beta1/simple/foo" {
		t.Errorf("got %+v", got)
	}
	if ts.storage.requestedID != "foo" {
		t.Errorf("storage was asked for %q", ts.storage.requestedID)
	}
}

func TestCreateAnswersWithTheObjectWhenStorageIsQuick(t *testing.T) {
	ts := newTestServer(t, Options{AsyncOpWait: quickEnough})
	resp, body := ts.do(t, "POST", "/api/v1beta1/simple", "id: foo\nname: bar\n", "Content-Type", "application/yaml")
	if resp.StatusCode != 200 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	got := decodeSimple(t, body)
	if got.ID != "foo" || got.Name != "bar" || got.SelfLink != "/api/v1beta1/simple/foo" {
		t.Errorf("got %+v", got)
	}
	if len(ts.storage.created) != 1 || ts.storage.created[0].Name != "bar" {
		t.Errorf("storage created %+v", ts.storage.created)
	}
}

func TestUpdateTakesThePathIDWhenTheBodyHasNone(t *testing.T) {
	ts := newTestServer(t, Options{AsyncOpWait: quickEnough})
	for _, body := range []string{`{"name":"bar"}`, `{"id":"foo","name":"bar"}`} {
		resp, out := ts.do(t, "PUT", "/api/v1beta1/simple/foo", body, "Content-Type", "application/json; charset=utf-8")
		if resp.StatusCode != 200 {
			t.Fatalf("PUT %s: HTTP %d %s", body, resp.StatusCode, out)
		}
		if got := decodeSimple(t, out); got.ID != "foo" || got.SelfLink != "/api/v1beta1/simple/foo" {
			t.Errorf("PUT %s answered %+v", body, got)
		}
	}
	for i, u := range ts.storage.updated {
		if u.ID != "foo" || u.Name != "bar" {
			t.Errorf("update %d was %+v", i, u)
		}
	}
}

func TestDeleteAnswersASuccessStatus(t *testing.T) {
	ts := newTestServer(t, Options{AsyncOpWait: quickEnough})
	resp, body := ts.do(t, "DELETE", "/api/v1beta1/simple/foo", "")
	if resp.StatusCode != 200 {
		t.Fatalf("HTTP %d %s", resp.StatusCode, body)
	}
	if status := decodeStatus(t, body); status.Status != api.StatusSuccess {
		t.Errorf("Status = %+v", status)
	}
	if fmt.Sprint(ts.storage.deleted) != "[foo]" {
		t.Errorf("deleted %v", ts.storage.deleted)
	}
}

func TestStorageErrorsReachTheClientWithTheirCode(t *testing.T) {
	invalid := apierrors.NewInvalid("simple", "foo", apierrors.ErrorList{
		apierrors.NewFieldRequired("name", ""),
		apierrors.NewFieldInvalid("labels", "x"),
	})
	cases := []struct {
		name   string
		err    error
		code   int
		reason api.StatusReason
		msg    string
	}{
		{"not found", apierrors.NewNotFound("simple", "foo"), 404, api.StatusReasonNotFound, `simple "foo" not found`},
		{"already exists", apierrors.NewAlreadyExists("simple", "foo"), 409, api.StatusReasonAlreadyExists, `simple "foo" already exists`},
		{"conflict", apierrors.NewConflict("simple", "foo", fmt.Errorf("101: Compare failed")), 409, api.StatusReasonConflict, `simple "foo" cannot be updated: 101: Compare failed`},
		{"invalid", invalid, 422, api.StatusReasonInvalid, `simple "foo" is invalid: name: required value`},
		{"gone", apierrors.NewGone("too old"), 410, api.StatusReasonGone, "too old"},
		{"unavailable", apierrors.NewServiceUnavailable("etcd is down"), 503, api.StatusReasonServiceUnavailable, "etcd is down"},
		{"plain error", fmt.Errorf("disk on fire"), 500, api.StatusReasonInternalError, "disk on fire"},
	}
	calls := []struct{ method, path, body, errKey string }{
		{"GET", "/api/v1beta1/simple", "", "list"},
		{"GET", "/api/v1beta1/simple/foo", "", "get"},
		{"POST", "/api/v1beta1/simple", `{"id":"foo"}`, "create"},
		{"PUT", "/api/v1beta1/simple/foo", `{"id":"foo"}`, "update"},
		{"DELETE", "/api/v1beta1/simple/foo", "", "delete"},
		{"POST", "/api/v1beta1/simple", `{"id":"foo"}`, "async"},
		{"PUT", "/api/v1beta1/simple/foo", `{"id":"foo"}`, "async"},
		{"DELETE", "/api/v1beta1/simple/foo", "", "async"},
	}
	for _, c := range cases {
		for _, call := range calls {
			t.Run(c.name+" from "+call.errKey+" "+call.method, func(t *testing.T) {
				ts := newTestServer(t, Options{})
				if call.errKey == "async" {
					err := c.err
					ts.storage.injectedFunction = func(api.Object) (api.Object, error) { return nil, err }
				} else {
					ts.storage.errors[call.errKey] = c.err
				}
				resp, body := ts.do(t, call.method, call.path+"?sync=true", call.body)
				if resp.StatusCode != c.code {
					t.Fatalf("HTTP %d, want %d: %s", resp.StatusCode, c.code, body)
				}
				status := decodeStatus(t, body)
				if status.Code != c.code || status.Reason != c.reason || status.Status != api.StatusFailure || !strings.Contains(status.Message, c.msg) {
					t.Errorf("Status = %+v", status)
				}
				if c.code == 422 {
					if len(status.Details.Causes) != 2 || status.Details.Causes[0].Field != "name" ||
						status.Details.Causes[0].Type != api.CauseTypeFieldValueRequired || status.Details.Causes[1].Type != api.CauseTypeFieldValueInvalid {
						t.Errorf("causes = %+v", status.Details.Causes)
					}
				}
				if c.code == 404 || c.code == 409 {
					if status.Details == nil || status.Details.ID != "foo" || status.Details.Kind != "simple" {
						t.Errorf("details = %+v", status.Details)
					}
				}
			})
		}
	}
}

func TestStorageThatReturnsNothingIsA500(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.storage.injectedFunction = func(api.Object) (api.Object, error) { return (*Simple)(nil), nil }
	resp, body := ts.do(t, "POST", "/api/v1beta1/simple?sync=true", `{"id":"a"}`)
	if resp.StatusCode != http.StatusInternalServerError || decodeStatus(t, body).Code != 500 {
		t.Errorf("HTTP %d %s", resp.StatusCode, body)
	}
}
