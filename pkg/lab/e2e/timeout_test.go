package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// The apiserver ends every watch stream when its -server_timeout passes, as
// v0.4's five-minute ReadTimeout and WriteTimeout did. The manager, 2014's
// or today's, must watch again and go on working: here the timeout is 2 s,
// and the manager's controller watch is seen to end several times before a
// resize that it carries out.
func TestWatchesEndAtTheServerTimeoutAndTheManagerWatchesAgain(t *testing.T) {
	t.Parallel()
	st := designtest.Start(t, stack.Config{
		Nodes:              3,
		StartDelay:         100 * time.Millisecond,
		ControllerManagers: 1,
		SyncPeriod:         2 * time.Second,
		EndpointsPeriod:    time.Second,
		APIServerArgs:      []string{"-server_timeout=2s"},
	})
	c := client.NewOrDie(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "e2e"})
	if _, err := c.CreateReplicationController(api.NewDefaultContext(), nginxController(2)); err != nil {
		t.Fatal(err)
	}
	watchtest.Within(t, deadline, "2 running pods", runningExactly(c, 2))

	watchtest.Within(t, deadline, "three ended controller watches of the manager", func() (bool, error) {
		m, err := sampler.Scrape(st.APIURL + "/metrics")
		if err != nil {
			return false, err
		}
		ended := m.Sum("apiserver_request_total", map[string]string{
			"verb": "WATCH", "resource": "replicationControllers", "component": "controller-manager",
		})
		if ended < 3 {
			return false, fmt.Errorf("%v controller watches of the manager ended", ended)
		}
		return true, nil
	})

	resize(t, c, "nginxController", 4)
	watchtest.Within(t, deadline, "4 running pods after the resize", runningExactly(c, 4))
}
