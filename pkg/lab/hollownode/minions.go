package hollownode

import (
	"time"

	"github.com/golang/glog"
	"k8s.io/apimachinery/pkg/util/wait"
)

// MinionPollPeriod is how often the stand-in scheduler lists the minions,
// as v0.4's scheduler polled them (plugin/pkg/scheduler/factory, every
// 10 s, because minions could not be watched yet).
const MinionPollPeriod = 10 * time.Second

// pollMinions lists the registered minions at once and then every period
// until stopCh closes, as v0.4's scheduler's poller did
// (pkg/client/cache/poller.go, util.Forever). A hollow node whose minion
// is no longer registered takes no new pod; for up to a period after a
// minion is deleted, pods are still bound to it, as v0.4's scheduler still
// bound them, and they read Terminated.
func (h *Cluster) pollMinions(period time.Duration, stopCh <-chan struct{}) {
	wait.Until(func() {
		list, err := h.client.ListMinions()
		if err != nil {
			glog.Errorf("listing minions: %v", err)
			return
		}
		registered := map[string]bool{}
		for _, m := range list.Items {
			registered[m.ID] = true
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		for node := range h.podsPerNode {
			if gone := !registered[node]; gone != h.unregistered[node] {
				glog.Infof("hollow node %s registered as a minion: %v", node, !gone)
				if gone {
					h.unregistered[node] = true
				} else {
					delete(h.unregistered, node)
				}
			}
		}
	}, period, stopCh)
}
