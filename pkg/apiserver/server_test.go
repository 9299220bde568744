package apiserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
	"github.com/prometheus/client_golang/prometheus"
)

// newTimedServer serves a test apiserver through NewHTTPServer with timeout.
func newTimedServer(t *testing.T, timeout time.Duration) *testServer {
	t.Helper()
	storage := newSimpleStorage()
	s := newAPIServer(map[string]RESTStorage{"simple": storage}, "/api/v1beta1", Options{Registry: prometheus.NewRegistry()})
	server := httptest.NewUnstartedServer(nil)
	server.Config = NewHTTPServer(s, timeout)
	server.Start()
	client := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(func() {
		client.CloseIdleConnections()
		server.Close()
	})
	return &testServer{apiServer: s, http: server, client: client, storage: storage}
}

// As in v0.4, the server's timeout ends a watch stream, whether events are
// flowing or not, and the storage watch behind it stops.
func TestTheServerTimeoutEndsAWatchStream(t *testing.T) {
	for _, busy := range []bool{false, true} {
		name := map[bool]string{false: "idle", true: "busy"}[busy]
		t.Run(name, func(t *testing.T) {
			ts := newTimedServer(t, 300*time.Millisecond)
			_, r, fake, _ := openWatch(t, ts, "")
			ended := make(chan error, 1)
			go func() {
				for {
					if _, err := r.ReadBytes('\n'); err != nil {
						ended <- err
						return
					}
				}
			}()
			stop := make(chan struct{})
			defer close(stop)
			if busy {
				go func() {
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						case <-time.After(20 * time.Millisecond):
							if fake.IsStopped() {
								return
							}
							addUnlessStopped(fake, &Simple{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: uint64(i + 1)}})
						}
					}
				}()
			}
			select {
			case err := <-ended:
				// A busy stream may meet the write deadline first, which
				// cuts the connection; an idle one ends cleanly.
				if !busy && err != io.EOF {
					t.Errorf("the idle stream did not end cleanly: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the stream outlived the server timeout by 30 s")
			}
			watchtest.Eventually(t, "the storage watch to stop", fake.IsStopped)
		})
	}
}

func TestAZeroServerTimeoutSetsNoDeadline(t *testing.T) {
	s := NewHTTPServer(http.NotFoundHandler(), 0)
	if s.ReadTimeout != 0 || s.WriteTimeout != 0 || s.ReadHeaderTimeout <= 0 {
		t.Errorf("got read %v write %v header %v", s.ReadTimeout, s.WriteTimeout, s.ReadHeaderTimeout)
	}
}

// addUnlessStopped pushes obj into fake. The server may stop the fake, and
// so close its channel, while Add waits to send: that is the end of the
// stream the test waits for, and the send's panic is swallowed.
func addUnlessStopped(fake *watch.FakeWatcher, obj api.Object) {
	defer func() { recover() }()
	fake.Add(obj)
}
