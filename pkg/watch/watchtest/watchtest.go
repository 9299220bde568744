package watchtest

import (
	"bytes"
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/watch"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Timeout is how long a test waits for an event, for a watch to close or
// for a condition in this process.
const Timeout = 30 * time.Second

// Next returns the next event of w, failing tb if the watch closes or
// nothing comes within Timeout.
func Next(tb testing.TB, w watch.Interface) watch.Event {
	tb.Helper()
	select {
	case e, ok := <-w.ResultChan():
		if !ok {
			tb.Fatal("the watch closed")
		}
		return e
	case <-time.After(Timeout):
		tb.Fatalf("no event within %v", Timeout)
	}
	return watch.Event{}
}

// ExpectClosed fails tb unless w closes without another event.
func ExpectClosed(tb testing.TB, w watch.Interface) {
	tb.Helper()
	select {
	case e, ok := <-w.ResultChan():
		if ok {
			tb.Fatalf("an event %s %#v where the watch should close", e.Type, e.Object)
		}
	case <-time.After(Timeout):
		tb.Fatalf("the watch did not close within %v", Timeout)
	}
}

// StopAndDrain stops w and waits until its channel closes, which means its
// request has ended: tests call it before their etcd client is closed, as
// go-etcd's Client.Close is not safe while a request is in flight.
func StopAndDrain(tb testing.TB, w watch.Interface) {
	tb.Helper()
	w.Stop()
	timeout := time.After(Timeout)
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return
			}
		case <-timeout:
			tb.Fatalf("the watch did not close within %v of Stop", Timeout)
		}
	}
}

// Eventually polls cond every few milliseconds until it holds, failing tb
// after Timeout: for what a test's own process brings about.
func Eventually(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	poll(tb, 10*time.Millisecond, Timeout, what, func() (bool, error) { return cond(), nil })
}

// Within polls cond every 100 ms until it holds, failing tb after timeout
// with cond's last error: for what whole clusters of processes bring
// about.
func Within(tb testing.TB, timeout time.Duration, what string, cond func() (bool, error)) {
	tb.Helper()
	poll(tb, 100*time.Millisecond, timeout, what, cond)
}

// GoroutinesAtMost waits until at most n goroutines run, failing tb with
// every goroutine's stack after Timeout: the goroutines that what a test
// stopped had started have ended.
func GoroutinesAtMost(tb testing.TB, n int) {
	tb.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 10*time.Millisecond, Timeout, true, func(context.Context) (bool, error) {
		return runtime.NumGoroutine() <= n, nil
	})
	if err != nil {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		tb.Fatalf("%d goroutines after %v, want at most %d:\n%s", runtime.NumGoroutine(), Timeout, n, bytes.TrimSpace(buf))
	}
}

func poll(tb testing.TB, interval, timeout time.Duration, what string, cond func() (bool, error)) {
	tb.Helper()
	var last error
	err := wait.PollUntilContextTimeout(context.Background(), interval, timeout, true, func(context.Context) (bool, error) {
		ok, err := cond()
		last = err
		return ok, nil
	})
	if err == nil {
		return
	}
	if last != nil {
		tb.Fatalf("gave up waiting for %s after %v (last error: %v)", what, timeout, last)
	}
	tb.Fatalf("gave up waiting for %s after %v", what, timeout)
}
