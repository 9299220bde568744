package json

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

func TestEventsSurviveTheStream(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	events := []watch.Event{
		{Type: watch.Added, Object: &api.Pod{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: 3}}},
		{Type: watch.Modified, Object: &api.ReplicationController{TypeMeta: api.TypeMeta{ID: "c", ResourceVersion: 4}}},
		{Type: watch.Deleted, Object: &api.Service{TypeMeta: api.TypeMeta{ID: "s", ResourceVersion: 5}, Port: 80}},
		{Type: watch.Error, Object: &api.Status{Status: api.StatusFailure, Code: 410, Reason: api.StatusReasonGone}},
	}
	for i := range events {
		if err := enc.Encode(&events[i]); err != nil {
			t.Fatal(err)
		}
	}
	d := NewDecoder(io.NopCloser(&buf))
	for _, want := range events {
		typ, obj, err := d.Decode()
		if err != nil {
			t.Fatal(err)
		}
		if typ != want.Type || api.KindOf(obj) != api.KindOf(want.Object) || obj.GetTypeMeta().ResourceVersion != want.Object.GetTypeMeta().ResourceVersion {
			t.Errorf("got %s %s %+v, want %s %+v", typ, api.KindOf(obj), obj, want.Type, want.Object)
		}
	}
	if _, _, err := d.Decode(); err != io.EOF {
		t.Errorf("after the last event: %v, want io.EOF", err)
	}
}

// TestALineLongerThanTheLimitEndsTheStreamWithAnError feeds a line that
// never ends: the decoder must give up at MaxEventBytes instead of growing
// its buffer with it.
func TestALineLongerThanTheLimitEndsTheStreamWithAnError(t *testing.T) {
	endless := io.MultiReader(strings.NewReader(`{"type":"ADDED","object":{"id":"`), &repeater{b: 'x', n: MaxEventBytes + 1})
	d := NewDecoder(io.NopCloser(endless))
	_, _, err := d.Decode()
	if err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("got %v, want an error naming the limit", err)
	}
}

func TestMalformedLinesAreErrorsNamingTheProblem(t *testing.T) {
	cases := []struct{ line, mention string }{
		{`{"type":"BOOKMARK","object":{}}`, `invalid watch event type: "BOOKMARK"`},
		{`{"type":"ADDED"}`, "has no object"},
		{`{"type":"ADDED","object":{"kind":"Nope","apiVersion":"v1beta1"}}`, `unknown kind "Nope"`},
		{`{"type":`, "unexpected end"},
	}
	for _, c := range cases {
		d := NewDecoder(io.NopCloser(strings.NewReader(c.line + "\n")))
		if _, _, err := d.Decode(); err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: got %v, want an error mentioning %q", c.line, err, c.mention)
		}
	}
}

// repeater yields n copies of b.
type repeater struct {
	b byte
	n int
}

func (r *repeater) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	if len(p) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = r.b
	}
	r.n -= len(p)
	return len(p), nil
}
