package client

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

// seenRequest is what the stub apiserver kept of one request.
type seenRequest struct {
	Method    string
	URI       string
	Body      string
	UserAgent string
	Auth      string
}

// stubServer is a loopback HTTP server that records every request and
// answers through a handler the test supplies.
type stubServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []seenRequest
}

func newStubServer(t *testing.T, handler http.HandlerFunc) *stubServer {
	t.Helper()
	return newStubServerWith(t, handler, nil)
}

// newStubServerWith lets configure adjust the http.Server before it starts.
func newStubServerWith(t *testing.T, handler http.HandlerFunc, configure func(*http.Server)) *stubServer {
	t.Helper()
	s := &stubServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		user, pass, _ := r.BasicAuth()
		s.mu.Lock()
		s.seen = append(s.seen, seenRequest{
			Method:    r.Method,
			URI:       r.URL.RequestURI(),
			Body:      string(body),
			UserAgent: r.Header.Get("User-Agent"),
			Auth:      user + ":" + pass,
		})
		s.mu.Unlock()
		handler(w, r)
	}))
	if configure != nil {
		configure(s.Config)
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

func (s *stubServer) requests() []seenRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seenRequest(nil), s.seen...)
}

func (s *stubServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

// writeObject answers with obj as v1beta1 JSON and the given code.
func writeObject(t *testing.T, w http.ResponseWriter, code int, obj api.Object) {
	data, err := api.Encode(obj)
	if err != nil {
		t.Errorf("encoding %T: %v", obj, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(data)
}

// newTestClient returns a client of s with polling every millisecond.
func newTestClient(t *testing.T, s *stubServer, tweak func(*Config)) *Client {
	t.Helper()
	config := &Config{Host: s.URL, PollPeriod: 1e6}
	if tweak != nil {
		tweak(config)
	}
	c, err := New(config)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}
