package e2e

import (
	"fmt"
	"net"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/api/errors"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/designtest"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"github.com/kube-rewind/kube-rewind/pkg/watch/watchtest"
)

// deadline bounds every wait for convergence and every documented command
// run to completion: generous, for a loaded machine, and never a verdict.
const deadline = 3 * time.Minute

func nginxController(replicas int) *api.ReplicationController {
	return &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: "nginxController"},
		Labels:   map[string]string{"name": "nginx"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        replicas,
			ReplicaSelector: map[string]string{"name": "nginx"},
			PodTemplate: api.PodTemplate{
				Labels: map[string]string{"name": "nginx"},
				DesiredState: api.PodState{Manifest: api.ContainerManifest{
					Version: "v1beta1",
					Containers: []api.Container{{
						Name: "nginx", Image: "dockerfile/nginx",
						Ports: []api.Port{{ContainerPort: 80}},
					}},
				}},
			},
		},
	}
}

// activePods returns the pods matching name=nginx that have not stopped.
func activePods(c client.Interface) ([]api.Pod, error) {
	list, err := c.ListPods(api.NewDefaultContext(), labels.Set{"name": "nginx"}.AsSelector())
	if err != nil {
		return nil, err
	}
	var out []api.Pod
	for _, p := range list.Items {
		if p.CurrentState.Status != api.PodTerminated {
			out = append(out, p)
		}
	}
	return out, nil
}

func runningExactly(c client.Interface, n int) func() (bool, error) {
	return func() (bool, error) {
		pods, err := activePods(c)
		if err != nil {
			return false, err
		}
		running := 0
		for _, p := range pods {
			if p.CurrentState.Status == api.PodRunning && p.CurrentState.Host != "" && p.CurrentState.PodIP != "" {
				running++
			}
		}
		if len(pods) != n || running != n {
			return false, fmt.Errorf("%d active pods, %d running with host and IP; want %d", len(pods), running, n)
		}
		return true, nil
	}
}

// resize sets a controller's replicas, retrying until the deadline when a
// status write of the modern manager got in between its read and its
// write: how often that happens depends on how busy the machine is.
func resize(t *testing.T, c client.Interface, id string, replicas int) {
	t.Helper()
	ctx := api.NewDefaultContext()
	watchtest.Within(t, deadline, "resize "+id+" without a conflict", func() (bool, error) {
		rc, err := c.GetReplicationController(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rc.DesiredState.Replicas = replicas
		_, err = c.UpdateReplicationController(ctx, rc)
		if err != nil && !errors.IsConflict(err) {
			t.Fatal(err)
		}
		return err == nil, err
	})
}

func TestAControllerKeepsItsPodsThroughDeletesAndResizes(t *testing.T) {
	t.Parallel()
	st := designtest.Start(t, stack.Config{
		Nodes:              5,
		StartDelay:         100 * time.Millisecond,
		ControllerManagers: 1,
		SyncPeriod:         2 * time.Second,
		EndpointsPeriod:    time.Second,
	})
	c := client.NewOrDie(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "e2e"})
	ctx := api.NewDefaultContext()

	if _, err := c.CreateReplicationController(ctx, nginxController(5)); err != nil {
		t.Fatal(err)
	}
	watchtest.Within(t, deadline, "5 running pods", runningExactly(c, 5))

	pods, _ := activePods(c)
	victim := pods[0].ID
	if err := c.DeletePod(ctx, victim); err != nil {
		t.Fatal(err)
	}
	watchtest.Within(t, deadline, "a replacement for the deleted pod", func() (bool, error) {
		ok, err := runningExactly(c, 5)()
		if !ok {
			return false, err
		}
		now, _ := activePods(c)
		for _, p := range now {
			if p.ID == victim {
				return false, fmt.Errorf("deleted pod %s still listed", victim)
			}
		}
		return true, nil
	})

	// The modern manager writes the controller's status, so this resize
	// may meet a conflict and is retried, as kubectl does.
	resize(t, c, "nginxController", 2)
	watchtest.Within(t, deadline, "2 running pods after the resize", runningExactly(c, 2))

	service := &api.Service{
		TypeMeta: api.TypeMeta{ID: "nginx"},
		Port:     8000,
		Selector: map[string]string{"name": "nginx"},
	}
	if _, err := c.CreateService(ctx, service); err != nil {
		t.Fatal(err)
	}
	watchtest.Within(t, deadline, "endpoints listing exactly the two pods", func() (bool, error) {
		pods, err := activePods(c)
		if err != nil {
			return false, err
		}
		var want []string
		for _, p := range pods {
			want = append(want, net.JoinHostPort(p.CurrentState.PodIP, strconv.Itoa(80)))
		}
		ep, err := c.GetEndpoints(ctx, "nginx")
		if err != nil {
			return false, err
		}
		got := append([]string{}, ep.Endpoints...)
		sort.Strings(got)
		sort.Strings(want)
		if fmt.Sprint(got) != fmt.Sprint(want) || len(want) != 2 {
			return false, fmt.Errorf("endpoints %v, pods %v", got, want)
		}
		return true, nil
	})
}
