package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
)

func TestTheRateLimiterLetsOnlyTheBurstThrough(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	// One token per 1000 s: after the burst of 3, nothing more can pass
	// during the test, so counting is exact.
	c := newTestClient(t, s, func(c *Config) { c.QPS = 0.001; c.Burst = 3 })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	const calls = 6
	results := make(chan error, calls)
	for i := 0; i < calls; i++ {
		go func() {
			_, err := c.ListPods(ctx, nil)
			results <- err
		}()
	}
	var ok, refused int
	for i := 0; i < 3; i++ {
		if err := <-results; err != nil {
			t.Fatalf("a call within the burst failed: %v", err)
		}
		ok++
	}
	cancel()
	for i := 3; i < calls; i++ {
		if err := <-results; errors.Is(err, context.Canceled) {
			refused++
		} else {
			t.Errorf("a call beyond the burst returned %v", err)
		}
	}
	if ok != 3 || refused != 3 || s.count() != 3 {
		t.Errorf("ok=%d refused=%d server saw %d, want 3/3/3", ok, refused, s.count())
	}
}

func TestZeroQPSLeavesClientsUnlimited(t *testing.T) {
	s := newStubServer(t, answerByPath(t))
	c := newTestClient(t, s, nil)
	const calls = 100
	var wg sync.WaitGroup
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.ListPods(api.NewDefaultContext(), nil); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := s.count(); n != calls {
		t.Errorf("server saw %d requests, want %d", n, calls)
	}
}

func TestOneClientServesHundredsOfGoroutines(t *testing.T) {
	var created int64
	s := newStubServer(t, func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt64(&created, 1)
		writeObject(t, w, http.StatusOK, &api.Pod{TypeMeta: api.TypeMeta{ID: "p"}})
	})
	c := newTestClient(t, s, nil)
	template := &api.Pod{Labels: map[string]string{"name": "nginx"}}
	const goroutines = 300
	var wg sync.WaitGroup
	for i := 0; i < goroutines; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := c.CreatePod(api.NewDefaultContext(), template); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if created != goroutines {
		t.Errorf("created %d, want %d", created, goroutines)
	}
}

// TestConcurrentWavesReuseConnections counts the TCP connections the server
// accepts: a second wave as wide as the first should find the first wave's
// connections idle in the pool instead of dialling new ones.
func TestConcurrentWavesReuseConnections(t *testing.T) {
	const wave = 200
	// Each wave's handlers wait until the whole wave has arrived, so the
	// first wave needs one connection per request.
	var mu sync.Mutex
	inFlight := 0
	release := make(chan struct{})
	var dialled int64
	countNew := func(srv *http.Server) {
		srv.ConnState = func(_ net.Conn, state http.ConnState) {
			if state == http.StateNew {
				atomic.AddInt64(&dialled, 1)
			}
		}
	}
	s := newStubServerWith(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		gate := release
		if inFlight == wave {
			close(release)
		}
		mu.Unlock()
		<-gate
		writeObject(t, w, http.StatusOK, &api.PodList{})
	}, countNew)
	// A transport of our own, sized like the shared one, so that other
	// tests' connections do not count.
	c := newTestClient(t, s, func(c *Config) { c.Transport = newTransport() })
	runWave := func() {
		var wg sync.WaitGroup
		for i := 0; i < wave; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := c.ListPods(api.NewDefaultContext(), nil); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	runWave()
	first := atomic.LoadInt64(&dialled)
	mu.Lock()
	inFlight = 0
	release = make(chan struct{})
	mu.Unlock()
	runWave()
	second := atomic.LoadInt64(&dialled) - first
	t.Logf("first wave dialled %d connections, second wave %d", first, second)
	if first < wave {
		t.Errorf("the first wave should need %d connections, dialled %d", wave, first)
	}
	if second > wave/10 {
		t.Errorf("the second wave dialled %d new connections; the pool should have kept the first wave's", second)
	}
}
