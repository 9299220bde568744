package hollownode

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
)

func TestAPodSeenUnboundThenBoundLeavesEveryBindOnARealNode(t *testing.T) {
	h := New(&client.Fake{}, Config{Nodes: 2})
	h.podsPerNode[h.NodeName(0)] = 0
	h.podsPerNode[h.NodeName(1)] = 0
	h.queue.ShutDown()

	unbound := &api.Pod{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: 1}}
	h.observe(unbound)
	bound := &api.Pod{TypeMeta: api.TypeMeta{ID: "a", ResourceVersion: 2}, DesiredState: api.PodState{Host: h.NodeName(0)}}
	h.observe(bound)

	for i := 0; i < 4; i++ {
		if node := h.pickNode("next"); node != h.NodeName(0) && node != h.NodeName(1) {
			t.Fatalf("pick %d chose %q, not a registered node (counts %v)", i, node, h.podsPerNode)
		}
	}
	if len(h.podsPerNode) != 2 {
		t.Errorf("node counts %v, want the two registered nodes only", h.podsPerNode)
	}
}
