package apiserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	apierrors "github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// streamLine is one line of a watch stream as the client reads it.
type streamLine struct {
	Type   watch.EventType `json:"type"`
	Object json.RawMessage `json:"object"`
}

// openWatch starts a watch request and returns the response, a reader of
// its lines, the storage's fake watcher and a cancel function that plays a
// client going away.
func openWatch(t *testing.T, ts *testServer, query string) (*http.Response, *bufio.Reader, *watch.FakeWatcher, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", ts.http.URL+"/api/v1beta1/watch/simple"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ts.client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
	})
	if resp.StatusCode != 200 {
		body, _ := io.ReadAll(resp.Body)
		t.Fatalf("watch: HTTP %d %s", resp.StatusCode, body)
	}
	var fake *watch.FakeWatcher
	select {
	case fake = <-ts.storage.watchOpened:
	case <-time.After(10 * time.Second):
		t.Fatal("the storage watch was never opened")
	}
	return resp, bufio.NewReader(resp.Body), fake, cancel
}

func readLine(t *testing.T, r *bufio.Reader) streamLine {
	t.Helper()
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading the stream: %v (got %q)", err, line)
	}
	var got streamLine
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatalf("line is not an event: %v: %s", err, line)
	}
	return got
}

func expectEOF(t *testing.T, r *bufio.Reader) {
	t.Helper()
	if line, err := r.ReadBytes('\n'); err != io.EOF {
		t.Fatalf("stream did not end cleanly: %v %q", err, line)
	}
}

func TestWatchStreamsOneJSONLinePerEvent(t *testing.T) {
	ts := newTestServer(t, Options{})
	resp, r, fake, _ := openWatch(t, ts, "?labels=name%3Dfoo&fields=ID%3Da&resourceVersion=12")
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if ts.storage.requestedLabel.String() != "name=foo" || ts.storage.requestedField.String() != "ID=a" || ts.storage.requestedVersion != 12 {
		t.Errorf("storage got labels %q fields %q rv %d", ts.storage.requestedLabel, ts.storage.requestedField, ts.storage.requestedVersion)
	}
	if ts.storage.requestedNamespaceSet {
		t.Errorf("watch named namespace %q; v0.4 watched all namespaces", ts.storage.requestedNamespace)
	}

	events := []watch.Event{
		{Type: watch.Added, Object: &Simple{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: 13}}},
		{Type: watch.Modified, Object: &Simple{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: 14}, Name: "x"}},
		{Type: watch.Deleted, Object: &Simple{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: 15}, Name: "x"}},
	}
	for _, want := range events {
		fake.Action(want.Type, want.Object)
		got := readLine(t, r)
		if got.Type != want.Type {
			t.Errorf("type = %s, want %s", got.Type, want.Type)
		}
		obj := decodeSimple(t, got.Object)
		if obj.ResourceVersion != want.Object.GetTypeMeta().ResourceVersion {
			t.Errorf("object = %+v", obj)
		}
		var head struct{ Kind, APIVersion string }
		json.Unmarshal(got.Object, &head)
		if head.Kind != "Simple" || head.APIVersion != "v1beta1" {
			t.Errorf("event object header = %+v", head)
		}
	}
}

func TestAnErrorEventIsPassedOnAndEndsTheStream(t *testing.T) {
	ts := newTestServer(t, Options{})
	_, r, fake, _ := openWatch(t, ts, "")
	gone := apierrors.NewGone("resourceVersion 3 is too old").(apierrors.APIStatus).Status()
	fake.Error(&gone)
	got := readLine(t, r)
	if got.Type != watch.Error {
		t.Fatalf("type = %s, want ERROR", got.Type)
	}
	if status := decodeStatus(t, got.Object); status.Code != 410 || status.Reason != api.StatusReasonGone {
		t.Errorf("ERROR object = %+v", status)
	}
	expectEOF(t, r)
	watchtest.Eventually(t, "the storage watch to stop", fake.IsStopped)
	if got := gaugeValue(t, ts, "apiserver_watch_errors_total", map[string]string{"resource": "simple"}); got != 1 {
		t.Errorf("apiserver_watch_errors_total = %v, want 1", got)
	}
}

func TestTheStreamEndsWhenTheStorageWatchEnds(t *testing.T) {
	ts := newTestServer(t, Options{})
	_, r, fake, _ := openWatch(t, ts, "")
	fake.Stop()
	expectEOF(t, r)
}

// TestStoppingWatchesEndsEveryStreamCleanly closes StopWatches, as a
// server shutting down does before it stops its storage: the stream must
// end without an ERROR event and the storage watch must stop.
func TestStoppingWatchesEndsEveryStreamCleanly(t *testing.T) {
	stop := make(chan struct{})
	ts := newTestServer(t, Options{StopWatches: stop})
	_, r, fake, _ := openWatch(t, ts, "")
	fake.Add(&Simple{TypeMeta: api.TypeMeta{ID: "a"}})
	readLine(t, r)
	close(stop)
	expectEOF(t, r)
	watchtest.Eventually(t, "the storage watch to stop", fake.IsStopped)
}

func TestAClientGoingAwayStopsTheStorageWatch(t *testing.T) {
	ts := newTestServer(t, Options{})
	_, body := ts.do(t, "GET", "/healthz", "")
	_ = body
	before := runtime.NumGoroutine()

	_, r, fake, cancel := openWatch(t, ts, "")
	fake.Add(&Simple{TypeMeta: api.TypeMeta{ID: "a"}})
	readLine(t, r)
	if got := gaugeValue(t, ts, "apiserver_watch_streams", map[string]string{"resource": "simple"}); got != 1 {
		t.Errorf("apiserver_watch_streams = %v during the stream, want 1", got)
	}
	cancel()
	watchtest.Eventually(t, "the storage watch to stop", fake.IsStopped)
	watchtest.Eventually(t, "the stream gauge to drop", func() bool {
		return gaugeValue(t, ts, "apiserver_watch_streams", map[string]string{"resource": "simple"}) == 0
	})
	ts.client.CloseIdleConnections()
	watchtest.GoroutinesAtMost(t, before)
}

func TestAFailedWatchIsAnsweredWithItsStatus(t *testing.T) {
	ts := newTestServer(t, Options{})
	ts.storage.errors["watch"] = apierrors.NewGone("resourceVersion 3 is too old")
	resp, body := ts.do(t, "GET", "/api/v1beta1/watch/simple?resourceVersion=3", "")
	if resp.StatusCode != 410 {
		t.Fatalf("HTTP %d, want 410: %s", resp.StatusCode, body)
	}
	if status := decodeStatus(t, body); status.Reason != api.StatusReasonGone || status.Code != 410 {
		t.Errorf("Status = %+v", status)
	}
}
