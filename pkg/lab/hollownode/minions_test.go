package hollownode

import (
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

func TestANodeWhoseMinionIsDeletedTakesNoNewPodsAfterThePoll(t *testing.T) {
	fake := &client.Fake{Minions: api.MinionList{Items: []api.Minion{{TypeMeta: api.TypeMeta{ID: "hollow-node-1"}}}}}
	h := New(fake, Config{Nodes: 2})
	h.podsPerNode["hollow-node-0"] = 0
	h.podsPerNode["hollow-node-1"] = 5
	if got := h.pickNode("before"); got != "hollow-node-0" {
		t.Fatalf("before any poll the emptier node should be picked, got %q", got)
	}
	stop := make(chan struct{})
	defer close(stop)
	go h.pollMinions(time.Millisecond, stop)
	watchtest.Eventually(t, "the poll to notice that hollow-node-0 is no minion", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.unregistered["hollow-node-0"]
	})
	for i := 0; i < 3; i++ {
		if got := h.pickNode("after"); got != "hollow-node-1" {
			t.Errorf("pod bound to %q, want the registered hollow-node-1", got)
		}
	}
}
