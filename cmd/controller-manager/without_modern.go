//go:build modern

package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"

	"github.com/golang/glog"

	"github.com/kube-rewind/kube-rewind/pkg/controller"
	"github.com/kube-rewind/kube-rewind/pkg/history"
)

// Ours: -without is not upstream's. It runs today's design with changes of
// the project's history (pkg/history) switched off, one flag word each.
var without = flag.String("without", "", "Comma-separated changes of the history to switch off (modern; one of: "+strings.Join(history.SwitchNames(), ", ")+").")

// wiring is what -without changes outside the replication manager: the
// client's rate limit, the burst cap, the leader election and the garbage
// collector.
type wiring struct {
	qps              float64
	burstReplicas    int
	leaderElect      bool
	garbageCollector bool
}

// applyWithout returns the manager's switches and the wiring for the
// changes named in off; the wiring starts from w. A name it does not know
// is an error, so a change added to the catalogue with a switch must be
// handled here.
func applyWithout(off map[string]bool, w wiring) (controller.Without, wiring, error) {
	var sw controller.Without
	for name := range off {
		switch name {
		case "status-writes":
			sw.StatusWrites = true
		case "qps":
			w.qps = 0
		case "pod-informer":
			sw.PodInformer = true
		case "expectations":
			sw.Expectations = true
		case "burst-cap":
			w.burstReplicas = math.MaxInt32
		case "wait-for-caches":
			sw.WaitForCaches = true
		case "ranked-deletion":
			sw.RankedDeletion = true
		case "leader-election":
			w.leaderElect = false
		case "rate-limited-requeue":
			sw.RateLimitedRequeue = true
		case "controller-ref":
			sw.ControllerRef = true
		case "slow-start":
			sw.SlowStart = true
		case "garbage-collector":
			w.garbageCollector = false
		default:
			return sw, w, fmt.Errorf("-without=%s: the controller-manager has no switch for it", name)
		}
	}
	return sw, w, nil
}

var switchesOnce struct {
	sync.Once
	sw controller.Without
	w  wiring
}

// switches reads -without once, on top of the flags it overrides, and
// exits with a usage error naming the valid changes if it names another.
func switches() (controller.Without, wiring) {
	switchesOnce.Do(func() {
		off, err := history.ParseWithout(*without)
		if err == nil {
			w := wiring{qps: *kubeAPIQPS, burstReplicas: *burstReplicas, leaderElect: election.Elect, garbageCollector: true}
			switchesOnce.sw, switchesOnce.w, err = applyWithout(off, w)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "controller-manager: %v\n", err)
			os.Exit(2)
		}
		if len(off) > 0 {
			glog.Infof("running without %s (pkg/history)", history.FormatWithout(off))
		}
	})
	return switchesOnce.sw, switchesOnce.w
}

// wiredQPS is the client's rate limit after -without.
func wiredQPS() float64 {
	_, w := switches()
	return w.qps
}
