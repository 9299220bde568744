package loadtest

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/apiserver"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/master"
	rt "github.com/kube-rewind/kube-rewind/pkg/registry/registrytest"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// change is one write as the writer had it acknowledged, or one event as a
// watcher saw it. A delete's resourceVersion is unknown to the writer (the
// answer is a bare Status), so it is 0 on the writer's side.
type change struct {
	typ watch.EventType
	id  string
	rv  uint64
}

// loadWriter writes pods at a fixed total rate from several goroutines,
// each owning its own pods, and records every write the server
// acknowledged.
type loadWriter struct {
	c       *client.Client
	limiter *rate.Limiter

	mu     sync.Mutex
	acked  []change
	failed []error
	// live is every pod that exists after the acknowledged writes, with the
	// resourceVersion of its last write.
	live map[string]uint64
}

func (lw *loadWriter) count() int {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return len(lw.acked)
}

func (lw *loadWriter) record(c change, err error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if err != nil {
		lw.failed = append(lw.failed, fmt.Errorf("%s %s: %v", c.typ, c.id, err))
		return
	}
	lw.acked = append(lw.acked, c)
	if c.typ == watch.Deleted {
		delete(lw.live, c.id)
	} else {
		lw.live[c.id] = c.rv
	}
}

// run writes until ctx ends: creates, updates and deletes in about equal
// shares once each goroutine owns a few pods.
func (lw *loadWriter) run(ctx context.Context, writer int) {
	rnd := rand.New(rand.NewSource(int64(writer)))
	var mine []*api.Pod
	for n := 0; ; n++ {
		if err := lw.limiter.Wait(ctx); err != nil {
			return
		}
		// Writes use their own context: one cut short when the test's
		// ends would leave its outcome unknown.
		wctx := api.NewDefaultContext()
		switch op := rnd.Intn(3); {
		case len(mine) < 10 || op == 0:
			pod := rt.ValidPod(fmt.Sprintf("w%d-%d", writer, n), "load")
			got, err := lw.c.CreatePod(wctx, pod)
			if err == nil {
				mine = append(mine, got)
				lw.record(change{watch.Added, got.ID, got.ResourceVersion}, nil)
			} else {
				lw.record(change{watch.Added, pod.ID, 0}, err)
			}
		case op == 1:
			i := rnd.Intn(len(mine))
			pod := mine[i]
			pod.Labels["gen"] = strconv.Itoa(n)
			got, err := lw.c.UpdatePod(wctx, pod)
			if err == nil {
				mine[i] = got
				lw.record(change{watch.Modified, got.ID, got.ResourceVersion}, nil)
			} else {
				lw.record(change{watch.Modified, pod.ID, 0}, err)
			}
		default:
			i := rnd.Intn(len(mine))
			id := mine[i].ID
			err := lw.c.DeletePod(wctx, id)
			if err == nil {
				mine = append(mine[:i], mine[i+1:]...)
			}
			lw.record(change{watch.Deleted, id, 0}, err)
		}
	}
}

// eventLog is what one watcher saw, in order.
type eventLog struct {
	mu      sync.Mutex
	events  []change
	errors  []string
	resumes int
	n       atomic.Int64
}

func (l *eventLog) add(c change) {
	l.mu.Lock()
	l.events = append(l.events, c)
	l.mu.Unlock()
	l.n.Add(1)
}

// follow watches pods from rv until ctx ends, resuming after the last
// event seen whenever a stream ends without an ERROR; an ERROR is
// recorded and ends it.
func (l *eventLog) follow(ctx context.Context, c *client.Client, rv uint64) {
	for ctx.Err() == nil {
		w, err := c.WatchPods(ctx, labels.Everything(), labels.Everything(), rv)
		if err != nil {
			if ctx.Err() == nil {
				l.mu.Lock()
				l.errors = append(l.errors, err.Error())
				l.mu.Unlock()
			}
			return
		}
		for event := range w.ResultChan() {
			if event.Type == watch.Error {
				l.mu.Lock()
				l.errors = append(l.errors, fmt.Sprintf("%+v", event.Object))
				l.mu.Unlock()
				w.Stop()
				return
			}
			meta := event.Object.GetTypeMeta()
			l.add(change{event.Type, meta.ID, meta.ResourceVersion})
			rv = meta.ResourceVersion
		}
		w.Stop()
		if ctx.Err() == nil {
			l.mu.Lock()
			l.resumes++
			l.mu.Unlock()
		}
	}
}

// checkExactlyOnce compares a watcher's events with the acknowledged
// writes: strictly rising resourceVersions; every acknowledged create and
// update exactly once, with its type and resourceVersion; every
// acknowledged delete exactly once, after the last write of its pod; and
// nothing else. It returns the number of events checked.
func checkExactlyOnce(t *testing.T, name string, acked, seen []change) int {
	t.Helper()
	var last uint64
	for i, e := range seen {
		if e.rv <= last {
			t.Errorf("%s: event %d (%s %s) at resourceVersion %d, not after %d", name, i, e.typ, e.id, e.rv, last)
			return i
		}
		last = e.rv
	}
	want := map[change]bool{}
	deletes := map[string]bool{}
	lastWrite := map[string]uint64{}
	for _, a := range acked {
		if a.typ == watch.Deleted {
			deletes[a.id] = true
			continue
		}
		want[a] = true
		lastWrite[a.id] = a.rv
	}
	for _, e := range seen {
		switch {
		case e.typ == watch.Deleted:
			if !deletes[e.id] {
				t.Errorf("%s: DELETED %s at %d was not acknowledged once more", name, e.id, e.rv)
			} else if e.rv <= lastWrite[e.id] {
				t.Errorf("%s: DELETED %s at %d is not after its last write at %d", name, e.id, e.rv, lastWrite[e.id])
			}
			delete(deletes, e.id)
		case want[e]:
			delete(want, e)
		default:
			t.Errorf("%s: %s %s at %d matches no acknowledged write (or came twice)", name, e.typ, e.id, e.rv)
		}
	}
	missing := make([]string, 0, len(want)+len(deletes))
	for w := range want {
		missing = append(missing, fmt.Sprintf("%s %s@%d", w.typ, w.id, w.rv))
	}
	for id := range deletes {
		missing = append(missing, "DELETED "+id)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%s: %d acknowledged writes never seen, e.g. %v", name, len(missing), missing[:min(5, len(missing))])
	}
	return len(seen)
}

// smallBufferListener shrinks the send buffer of every accepted
// connection, so that a client that stops reading stalls the server's
// watch after a few events instead of a few megabytes of them.
type smallBufferListener struct{ net.Listener }

func (l smallBufferListener) Accept() (net.Conn, error) {
	conn, err := l.Listener.Accept()
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetWriteBuffer(4096)
	}
	return conn, err
}

// laggardClient is a client with a connection pool of its own. Its
// receive buffer is left alone: shrinking it too makes Linux wait for
// zero-window probes, seconds apart, once reading resumes. Unread, it stays
// at the kernel's default (128 KB here), a couple of hundred events.
func laggardClient(t *testing.T, url string) *client.Client {
	transport := &http.Transport{}
	t.Cleanup(transport.CloseIdleConnections)
	c, err := client.New(&client.Config{Host: url, Sync: true, UserAgent: "laggard", Transport: transport})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// loadFor is how long the writers write: 20 s (4 000 writes) under make
// test, longer by hand for a soak (go test ./pkg/lab/loadtest
// -args -load_for=10m).
var loadFor = flag.Duration("load_for", 20*time.Second, "how long the load test's writers write")

func loadDuration() time.Duration {
	return *loadFor
}

func startLoadServers(t *testing.T) (fast, slow string) {
	helper := rt.NewHelper(t)
	handler := apiserver.Handle(master.NewStorage(helper), apiserver.DefaultPrefix, apiserver.Options{})
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	lagged := httptest.NewUnstartedServer(handler)
	lagged.Listener = smallBufferListener{lagged.Listener}
	lagged.Start()
	t.Cleanup(lagged.Close)
	return srv.URL, lagged.URL
}
