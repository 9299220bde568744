package stack

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeAPIServer answers creates at once (200 and the object), through an
// operation (202, then 200 on the poll), or with an error, by the id the
// request asks for.
func fakeAPIServer(t *testing.T) *httptest.Server {
	var mu sync.Mutex
	ops := map[string]string{}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.Method == "POST" && r.URL.Path == "/api/v1beta1/pods":
			id := strings.TrimSpace(string(body))
			switch {
			case strings.HasPrefix(id, "slow"):
				ops["op-"+id] = id
				w.WriteHeader(http.StatusAccepted)
				fmt.Fprintf(w, `{"kind":"Status","status":"Working","details":{"id":"op-%s","kind":"operation"}}`, id)
			case strings.HasPrefix(id, "bad"):
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, `{"kind":"Status","status":"Failure","code":500}`)
			default:
				fmt.Fprintf(w, `{"kind":"Pod","id":%q,"uid":"uid-%s","resourceVersion":3}`, id, id)
			}
		case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/api/v1beta1/operations/"):
			id := ops[strings.TrimPrefix(r.URL.Path, "/api/v1beta1/operations/")]
			fmt.Fprintf(w, `{"kind":"Pod","id":%q,"uid":"uid-%s","resourceVersion":4}`, id, id)
		case r.Method == "POST" && r.URL.Path == "/api/v1beta1/bindings":
			fmt.Fprint(w, `{"kind":"Status","status":"Success"}`)
		case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/api/v1beta1/watch/"):
			w.(http.Flusher).Flush()
			fmt.Fprint(w, `{"type":"ADDED","object":{"kind":"Pod","id":"w"}}`+"\n")
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
}

// recordingFake is a recorder in front of fakeAPIServer, both closed when
// the test ends.
func recordingFake(t *testing.T) *WriteRecorder {
	t.Helper()
	backend := fakeAPIServer(t)
	t.Cleanup(backend.Close)
	rec, err := StartWriteRecorder(backend.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	return rec
}

func TestTheRecorderKeepsEveryCreateAndBindingAcknowledgedAndEveryDeleteSent(t *testing.T) {
	rec := recordingFake(t)
	send := func(method, path, body string) int {
		req, _ := http.NewRequest(method, rec.URL()+path, strings.NewReader(body))
		req.Header.Set("User-Agent", "tester")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	send("POST", "/api/v1beta1/pods", "fast")
	send("POST", "/api/v1beta1/pods", "bad")
	if code := send("POST", "/api/v1beta1/pods", "slow"); code != http.StatusAccepted {
		t.Fatalf("the slow create answered %d through the recorder", code)
	}
	// Not acknowledged until the operation is polled.
	if creates, _, _ := rec.Acknowledged(); len(creates) != 1 {
		t.Errorf("%d creates acknowledged before the poll: %v", len(creates), creates)
	}
	// A check waits for the poll in flight rather than read at once.
	polled := make(chan int)
	go func() { polled <- rec.AwaitPolls(time.Minute) }()
	send("GET", "/api/v1beta1/operations/op-slow", "")
	if left := <-polled; left != 0 {
		t.Errorf("%d operations left unpolled after the poll", left)
	}
	send("POST", "/api/v1beta1/bindings", `{"podID":"fast","host":"node-1"}`)
	send("DELETE", "/api/v1beta1/pods/gone", "")
	send("GET", "/api/v1beta1/watch/pods", "")

	if rec.Sent() != 3 {
		t.Errorf("%d creates sent, want 3", rec.Sent())
	}
	creates, binds, deleted := rec.Acknowledged()
	want := []Created{{"pods", "fast", "uid-fast", "tester"}, {"pods", "slow", "uid-slow", "tester"}}
	if fmt.Sprint(creates) != fmt.Sprint(want) {
		t.Errorf("creates %v, want %v", creates, want)
	}
	if binds["fast"] != "node-1" || len(binds) != 1 {
		t.Errorf("bindings %v, want fast on node-1", binds)
	}
	if !deleted["pods/gone"] || len(deleted) != 1 {
		t.Errorf("deletes %v, want pods/gone", deleted)
	}
}

// A client that died before it polled never will: the wait gives up once
// no poll has ended for its idle time, and says how many are left.
func TestTheWaitForPollsGivesUpOnAClientThatNeverPolls(t *testing.T) {
	rec := recordingFake(t)
	resp, err := http.Post(rec.URL()+"/api/v1beta1/pods", "application/json", strings.NewReader("slow-orphan"))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if left := rec.AwaitPolls(200 * time.Millisecond); left != 1 {
		t.Errorf("%d operations left unpolled, want the orphan's 1", left)
	}
}
