package loadtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch"
)

// laggard is a watcher that stops reading long enough to fall out of
// etcd's window of 1000 events, then recovers as a client must: on the
// ERROR it lists, and watches again from the list's resourceVersion.
type laggard struct {
	mu    sync.Mutex
	state map[string]uint64
	// gone is the Status of the ERROR event that ended the first watch.
	gone     *api.Status
	seen     int
	listRV   uint64
	problems []string
}

func (lg *laggard) problem(format string, args ...interface{}) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	lg.problems = append(lg.problems, fmt.Sprintf(format, args...))
}

// apply folds one event into the state; it reports false for an ERROR.
func (lg *laggard) apply(event watch.Event, last *uint64) bool {
	if event.Type == watch.Error {
		return false
	}
	meta := event.Object.GetTypeMeta()
	if meta.ResourceVersion <= *last {
		lg.problem("%s %s at %d is not after %d", event.Type, meta.ID, meta.ResourceVersion, *last)
	}
	*last = meta.ResourceVersion
	lg.mu.Lock()
	defer lg.mu.Unlock()
	lg.seen++
	if event.Type == watch.Deleted {
		delete(lg.state, meta.ID)
	} else {
		lg.state[meta.ID] = meta.ResourceVersion
	}
	return true
}

// run reads pauseAfter events, stops reading until the writer has made gap
// more writes, then reads on until the ERROR, lists, and follows the
// watch from the list until ctx ends. It closes resumed once it reads
// again (or gives up), so that the writers keep writing until then.
func (lg *laggard) run(ctx context.Context, slow, lister *client.Client, from uint64, lw *loadWriter, pauseAfter, gap int, resumed chan<- struct{}) {
	var once sync.Once
	resume := func() { once.Do(func() { close(resumed) }) }
	defer resume()
	w, err := slow.WatchPods(ctx, labels.Everything(), labels.Everything(), from)
	if err != nil {
		lg.problem("first watch: %v", err)
		return
	}
	last := from
	for i := 0; i < pauseAfter; i++ {
		event, ok := <-w.ResultChan()
		if !ok || !lg.apply(event, &last) {
			lg.problem("the first watch ended before the pause, after %d events", i)
			w.Stop()
			return
		}
	}
	// Stop reading. The server's stream, its storage watch and the etcd
	// long poll behind it stall once the small socket buffers are full.
	target := lw.count() + gap
	for lw.count() < target && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	resume()
	for event := range w.ResultChan() {
		if !lg.apply(event, &last) {
			status, _ := event.Object.(*api.Status)
			lg.mu.Lock()
			lg.gone = status
			lg.mu.Unlock()
			break
		}
	}
	w.Stop()
	if lg.gone == nil {
		lg.problem("the watch ended without an ERROR after falling %d writes behind", gap)
		return
	}

	list, err := lister.ListPods(api.NewDefaultContext(), labels.Everything())
	if err != nil {
		lg.problem("relist: %v", err)
		return
	}
	lg.mu.Lock()
	lg.state = map[string]uint64{}
	for _, pod := range list.Items {
		lg.state[pod.ID] = pod.ResourceVersion
	}
	lg.listRV = list.ResourceVersion
	lg.mu.Unlock()
	last = list.ResourceVersion
	for ctx.Err() == nil {
		w, err := slow.WatchPods(ctx, labels.Everything(), labels.Everything(), last)
		if err != nil {
			if ctx.Err() == nil {
				lg.problem("watch after the relist: %v", err)
			}
			return
		}
		for event := range w.ResultChan() {
			if !lg.apply(event, &last) {
				lg.problem("ERROR after the relist: %+v", event.Object)
				w.Stop()
				return
			}
		}
		w.Stop()
	}
}

// sameAs reports whether the laggard's state is exactly want.
func (lg *laggard) sameAs(want map[string]uint64) (bool, string) {
	lg.mu.Lock()
	defer lg.mu.Unlock()
	for id, rv := range want {
		if lg.state[id] != rv {
			return false, fmt.Sprintf("pod %s at %d in the writer's state, %d in the laggard's", id, rv, lg.state[id])
		}
	}
	for id := range lg.state {
		if _, ok := want[id]; !ok {
			return false, fmt.Sprintf("pod %s is gone for the writer, not for the laggard", id)
		}
	}
	return true, ""
}

// TestEveryWatcherSeesEveryWriteOnceInOrderUnderLoad runs 10 watchers of
// pods while writers create, update and delete pods at 200 writes a
// second for -load_for (20 s; longer if the laggard below needs it).
// Every watcher must see every acknowledged write exactly once, in
// resourceVersion order, with its type. An eleventh watcher stops reading until it is more than etcd's
// 1000 events behind: it must get a 410 ERROR, list, watch on from the
// list, and end with exactly the writer's pods.
func TestEveryWatcherSeesEveryWriteOnceInOrderUnderLoad(t *testing.T) {
	const watchers, perSecond, writers = 10, 200, 4
	fastURL, slowURL := startLoadServers(t)
	c, err := client.New(&client.Config{Host: fastURL, Sync: true, UserAgent: "load"})
	if err != nil {
		t.Fatal(err)
	}
	start, err := c.ListPods(api.NewDefaultContext(), labels.Everything())
	if err != nil {
		t.Fatal(err)
	}
	lw := &loadWriter{c: c, limiter: rate.NewLimiter(perSecond, 1), live: map[string]uint64{}}

	watchCtx, stopWatching := context.WithCancel(context.Background())
	defer stopWatching()
	var wg sync.WaitGroup
	logs := make([]*eventLog, watchers)
	for i := range logs {
		logs[i] = &eventLog{}
		wg.Add(1)
		go func(l *eventLog) {
			defer wg.Done()
			l.follow(watchCtx, c, start.ResourceVersion)
		}(logs[i])
	}
	lg := &laggard{state: map[string]uint64{}}
	resumed := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		lg.run(watchCtx, laggardClient(t, slowURL), c, start.ResourceVersion, lw, 100, 1500, resumed)
	}()

	// The writers stop after the test's duration, but not before the
	// laggard has fallen behind and read again: on a slow machine (or
	// under -race) 1500 writes take longer than 15 s.
	began := time.Now()
	writeCtx, stopWriting := context.WithCancel(context.Background())
	defer stopWriting()
	go func() {
		defer stopWriting()
		select {
		case <-time.After(loadDuration()):
		case <-writeCtx.Done():
			return
		}
		select {
		case <-resumed:
		case <-writeCtx.Done():
		case <-time.After(5 * time.Minute):
		}
	}()
	var writing sync.WaitGroup
	for i := 0; i < writers; i++ {
		writing.Add(1)
		go func(i int) {
			defer writing.Done()
			lw.run(writeCtx, i)
		}(i)
	}
	writing.Wait()
	elapsed := time.Since(began)
	acked := lw.acked
	for _, err := range lw.failed {
		t.Errorf("write failed: %v", err)
	}

	// Wait for every watcher to have seen as many events as there were
	// writes, and for the laggard to reach the writer's state.
	deadline := time.Now().Add(60 * time.Second)
	for _, l := range logs {
		for int(l.n.Load()) < len(acked) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
	}
	converged, why := lg.sameAs(lw.live)
	for !converged && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		converged, why = lg.sameAs(lw.live)
	}
	stopWatching()
	wg.Wait()

	checked := 0
	for i, l := range logs {
		for _, e := range l.errors {
			t.Errorf("watcher %d: %s", i, e)
		}
		checked += checkExactlyOnce(t, fmt.Sprintf("watcher %d", i), acked, l.events)
	}
	for _, p := range lg.problems {
		t.Errorf("laggard: %s", p)
	}
	if lg.gone == nil || lg.gone.Code != 410 {
		t.Errorf("laggard: got %+v, want an ERROR event with a 410 Status", lg.gone)
	}
	if !converged {
		t.Errorf("laggard: not the writer's state: %s", why)
	}
	resumes := 0
	for _, l := range logs {
		resumes += l.resumes
	}
	t.Logf("%d writes acknowledged in %v (%.0f/s) by %d writers, %d pods left; %d watchers checked %d events (%d resumed streams); "+
		"the laggard saw %d events, got %q, relisted at %d and converged: %v",
		len(acked), elapsed.Round(time.Millisecond), float64(len(acked))/elapsed.Seconds(), writers, len(lw.live),
		watchers, checked, resumes, lg.seen, statusMessage(lg.gone), lg.listRV, converged)
}

func statusMessage(s *api.Status) string {
	if s == nil {
		return ""
	}
	return s.Message
}
