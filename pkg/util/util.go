package util

// Follows kubernetes/kubernetes pkg/util/util.go as of v0.4 (October 2014):
// Forever and HandleCrash kept every 2014 control loop alive.

import (
	"fmt"
	"runtime"
	"time"

	"github.com/golang/glog"
)

// ReallyCrash makes HandleCrash re-panic after logging; tests set it so that
// a panic fails the test instead of being swallowed.
var ReallyCrash bool

// HandleCrash logs a panic and its stack and lets the caller go on. Deferred
// at the top of a loop body, it turns a panic in one pass into a log line.
func HandleCrash() {
	if r := recover(); r != nil {
		callers := ""
		for i := 2; ; i++ {
			_, file, line, ok := runtime.Caller(i)
			if !ok {
				break
			}
			callers += fmt.Sprintf("%v:%v\n", file, line)
		}
		glog.Errorf("recovered from panic: %#v (%v)\n%v", r, r, callers)
		if ReallyCrash {
			panic(r)
		}
	}
}

// Forever calls f, then sleeps period, for ever. A panic in f is logged and
// the loop goes on. There is no stop channel and no jitter: in 2014 every
// loop ran for the life of the process, and all of them woke in step.
// (Modern: wait.Until with a stop channel and wait.JitterUntil.)
func Forever(f func(), period time.Duration) {
	for {
		func() {
			defer HandleCrash()
			f()
		}()
		time.Sleep(period)
	}
}
