//go:build !modern

package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// In v0.4 a pod's status was computed on every read, and a pod whose host
// was not a registered minion read Terminated. Deleting a minion therefore
// made the 2014 manager, which counts only pods that are not Terminated,
// replace the pods that had run there at its next tick.
//
// Legacy only: the modern manager counts pods from its informer, which
// holds them as the watch sent them, and a watch sends pods as stored; in
// today's Kubernetes the node lifecycle controller evicts the pods of a lost
// node, and nothing here plays that part.
func TestDeletingAMinionMakesTheManagerReplaceItsPods(t *testing.T) {
	t.Parallel()
	st := designtest.Start(t, stack.Config{
		Nodes:              3,
		StartDelay:         100 * time.Millisecond,
		ControllerManagers: 1,
		SyncPeriod:         2 * time.Second,
		EndpointsPeriod:    time.Second,
	})
	c := client.NewOrDie(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "e2e"})
	ctx := api.NewDefaultContext()
	if _, err := c.CreateReplicationController(ctx, nginxController(6)); err != nil {
		t.Fatal(err)
	}
	watchtest.Within(t, deadline, "6 running pods", runningExactly(c, 6))

	pods, err := activePods(c)
	if err != nil {
		t.Fatal(err)
	}
	victim := pods[0].DesiredState.Host
	onVictim := map[string]bool{}
	for _, p := range pods {
		if p.DesiredState.Host == victim {
			onVictim[p.ID] = true
		}
	}
	if err := c.DeleteMinion(victim); err != nil {
		t.Fatal(err)
	}
	for id := range onVictim {
		pod, err := c.GetPod(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if pod.CurrentState.Status != api.PodTerminated {
			t.Errorf("pod %s on the deleted minion %s reads %q, want Terminated", id, victim, pod.CurrentState.Status)
		}
	}
	watchtest.Within(t, deadline, fmt.Sprintf("6 running pods again, none of the %d on %s among them", len(onVictim), victim), func() (bool, error) {
		ok, err := runningExactly(c, 6)()
		if !ok {
			return false, err
		}
		now, _ := activePods(c)
		for _, p := range now {
			if onVictim[p.ID] {
				return false, fmt.Errorf("pod %s of the deleted minion still counts", p.ID)
			}
		}
		return true, nil
	})
}
