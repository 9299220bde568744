package etcd

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// inProcessClient sends every request to s through Dial, whatever the URL's
// host says.
func inProcessClient(s *Server) *http.Client {
	return &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return s.Dial(ctx) },
	}}
}

func readAll(t *testing.T, c *http.Client, method, url string, body io.Reader) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", method, url, err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// TestDialReachesTheSameMember writes and reads through in-process
// connections and through the loopback URL, and expects one store and the
// same answers from both.
func TestDialReachesTheSameMember(t *testing.T) {
	s, err := Start(Config{DataDir: t.TempDir(), FastTicks: true, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	in := inProcessClient(s)
	base := s.ClientURL()

	if code, body, _ := readAll(t, in, "PUT", base+"/v2/keys/registry/pods/a", strings.NewReader("value=one")); code != http.StatusCreated {
		t.Fatalf("PUT in process: %d %s", code, body)
	}
	putKey(t, base, "/registry/pods/b", "two")
	for _, target := range []string{
		"/v2/keys/registry/pods?recursive=true&sorted=true", // a listing, written by list.go
		"/v2/keys/registry/pods/a",                          // one key, by etcd's handler
		"/v2/keys/registry/pods/missing",                    // an error
		"/v2/machines",                                      // outside /v2/keys
	} {
		// The member writes to its own store as it settles after a start
		// (its attributes, the cluster's version), and each such write
		// moves the index: the two reads are compared once an in-process
		// read after them finds the index where the first one did.
		var inCode, code int
		var inBody, body string
		var inIndex, index string
		for try := 0; try < 50; try++ {
			var inHeader, header, afterHeader http.Header
			inCode, inBody, inHeader = readAll(t, in, "GET", base+target, nil)
			code, body, header = readAll(t, http.DefaultClient, "GET", base+target, nil)
			_, _, afterHeader = readAll(t, in, "GET", base+target, nil)
			inIndex, index = inHeader.Get("X-Etcd-Index"), header.Get("X-Etcd-Index")
			if inIndex == afterHeader.Get("X-Etcd-Index") {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if inCode != code || inBody != body {
			t.Errorf("GET %s: in process %d %q, over loopback %d %q", target, inCode, inBody, code, body)
		}
		if strings.HasPrefix(target, "/v2/keys") && inIndex != index {
			t.Errorf("GET %s: X-Etcd-Index in process %q, over loopback %q", target, inIndex, index)
		}
	}
}

// TestDialWatchSeesWritesAndEndsWhenCancelled holds a watch open on an
// in-process connection: it must see a write sent over loopback, and a
// cancelled watch, and Close, must not be left waiting.
func TestDialWatchSeesWritesAndEndsWhenCancelled(t *testing.T) {
	s, err := Start(Config{DataDir: t.TempDir(), FastTicks: true, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	in := inProcessClient(s)
	base := s.ClientURL()

	got := make(chan string, 1)
	go func() {
		resp, err := in.Get(base + "/v2/keys/registry/pods?wait=true&recursive=true")
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		got <- string(b)
	}()
	// The watch is open once etcd has it; until then a write could come
	// before it and be missed, so write until the watch answers.
	deadline := time.After(time.Minute)
	var answer string
	for answer == "" {
		putKey(t, base, "/registry/pods/w", "seen")
		select {
		case answer = <-got:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("the watch saw no write within a minute")
		}
	}
	if !strings.Contains(answer, `"value":"seen"`) {
		t.Fatalf("the watch answered %q, want the write", answer)
	}

	// A cancelled watch ends its request.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/v2/keys/registry/other?wait=true", nil)
	done := make(chan error, 1)
	go func() {
		resp, err := in.Do(req)
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a cancelled watch was still open a minute later")
	}

	// Close ends a watch still open, and new dials fail.
	open := make(chan struct{})
	go func() {
		resp, err := in.Get(base + "/v2/keys/registry/third?wait=true")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		close(open)
	}()
	time.Sleep(100 * time.Millisecond)
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close waited more than a minute with an in-process watch open")
	}
	select {
	case <-open:
	case <-time.After(time.Minute):
		t.Fatal("the watch was still open a minute after Close")
	}
	if _, err := s.Dial(context.Background()); err == nil {
		t.Error("Dial after Close succeeded")
	}
}

// TestDialedListingsAreWholeAndLarge reads a listing larger than any
// buffer on the way through an in-process connection.
func TestDialedListingsAreWholeAndLarge(t *testing.T) {
	s, err := Start(Config{DataDir: t.TempDir(), FastTicks: true, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	big := strings.Repeat("x", 200<<10)
	for _, k := range []string{"/registry/big/1", "/registry/big/2", "/registry/big/3"} {
		putKey(t, s.ClientURL(), k, big)
	}
	target := s.ClientURL() + "/v2/keys/registry/big?recursive=true&sorted=true"
	_, inBody, _ := readAll(t, inProcessClient(s), "GET", target, nil)
	_, body, _ := readAll(t, http.DefaultClient, "GET", target, nil)
	if !bytes.Equal([]byte(inBody), []byte(body)) || len(body) < 600<<10 {
		t.Fatalf("listing in process %d bytes, over loopback %d bytes, not the same", len(inBody), len(body))
	}
}
