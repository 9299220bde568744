package scenario

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// Controller returns a replication controller of replicas copies of a
// one-container pod, selecting on selector; the template carries extra
// labels besides the selector's.
func Controller(id string, replicas int, selector, extra map[string]string) *api.ReplicationController {
	template := map[string]string{}
	for k, v := range selector {
		template[k] = v
	}
	for k, v := range extra {
		template[k] = v
	}
	return &api.ReplicationController{
		TypeMeta: api.TypeMeta{ID: id},
		Labels:   map[string]string{"scenario": "true"},
		DesiredState: api.ReplicationControllerState{
			Replicas:        replicas,
			ReplicaSelector: selector,
			PodTemplate: api.PodTemplate{
				Labels: template,
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

// CreateController creates rc.
func (e *Env) CreateController(rc *api.ReplicationController) error {
	return e.Cluster.CreateController(context.Background(), rc)
}

// Resize sets a controller's replicas as kubecfg resize does (GET, then
// PUT), reading again when the controller changed in between.
func (e *Env) Resize(ctx context.Context, id string, replicas int) error {
	return e.Cluster.Resize(ctx, id, replicas)
}

// WaitRunning waits until exactly n pods are active and all of them run.
// If they never do, the error says where the pods stood besides the
// laboratory's count (whereThePodsStand).
func (e *Env) WaitRunning(ctx context.Context, n int, limit time.Duration) error {
	err := WaitFor(ctx, limit, fmt.Sprintf("%d running pods", n), func() (bool, string) {
		c := e.Sampler.Pods.Counts()
		return c.Active == n && c.Running == n, fmt.Sprintf("%d active, %d running", c.Active, c.Running)
	})
	if err != nil && ctx.Err() == nil {
		if where := e.whereThePodsStand(ctx); where != "" {
			return fmt.Errorf("%w; %s", err, where)
		}
	}
	return err
}

// WaitActive waits until exactly n pods are active, whatever their state.
func (e *Env) WaitActive(ctx context.Context, n int, limit time.Duration) error {
	return WaitFor(ctx, limit, fmt.Sprintf("%d active pods", n), func() (bool, string) {
		c := e.Sampler.Pods.Counts()
		return c.Active == n, fmt.Sprintf("%d active", c.Active)
	})
}

// WaitSteady waits until exactly n pods have stayed active for hold
// without a break. A 2014 tick that listed a controller before a resize
// acts on the old count after the new one is reached, and the next tick
// undoes it: a count reached once is not yet the end.
func (e *Env) WaitSteady(ctx context.Context, n int, hold, limit time.Duration) error {
	var since time.Time
	return WaitFor(ctx, limit, fmt.Sprintf("%d active pods for %v", n, hold), func() (bool, string) {
		c := e.Sampler.Pods.Counts()
		if c.Active != n {
			since = time.Time{}
			return false, fmt.Sprintf("%d active", c.Active)
		}
		if since.IsZero() {
			since = time.Now()
		}
		return time.Since(since) >= hold, fmt.Sprintf("%d active for %v", n, time.Since(since).Round(100*time.Millisecond))
	})
}

// CountActive lists the active pods matching selector from the apiserver.
func (e *Env) CountActive(selector map[string]string) (int, error) {
	list, err := e.Client.ListPods(api.NewDefaultContext(), labels.SelectorFromSet(selector))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range list.Items {
		if p.CurrentState.Status != api.PodTerminated {
			n++
		}
	}
	return n, nil
}

// Sampled figures every scenario can report.

// Last returns the last sampled value of a series.
func (e *Env) Last(name string) float64 { return e.Sampler.Rec.Last(name) }

// ManagerRequests sums the controller-managers' requests of every verb.
func (e *Env) ManagerRequests() float64 {
	total := 0.0
	for _, v := range sampler.Verbs {
		total += e.Last(sampler.ManagerRequests + v)
	}
	return total
}

// PerMinute returns the change of a cumulative series between two marks,
// per minute.
func (e *Env) PerMinute(series, from, to string) float64 {
	a, b := e.At(from), e.At(to)
	if a < 0 || b <= a {
		return 0
	}
	return e.Sampler.Rec.Between(series, a, b) * 60 / (b - a)
}

// ManagerRequestsPerMinute sums the controller-managers' requests of
// every verb between two marks, per minute.
func (e *Env) ManagerRequestsPerMinute(from, to string) float64 {
	total := 0.0
	for _, v := range sampler.Verbs {
		total += e.PerMinute(sampler.ManagerRequests+v, from, to)
	}
	return total
}

// ConvergeLimit is a generous bound on the time to create or delete n pods,
// allowing for the modern design's 20 requests a second.
func ConvergeLimit(n int) time.Duration {
	return 90*time.Second + time.Duration(n)*150*time.Millisecond
}

// CreatePods creates n copies of pod from clients clients at once, as fast
// as the apiserver takes them; the first error stops them all.
func CreatePods(ctx context.Context, c client.Interface, pod api.Pod, n, clients int) error {
	var next int64 = -1
	var failed atomic.Value
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for failed.Load() == nil && atomic.AddInt64(&next, 1) < int64(n) && ctx.Err() == nil {
				p := pod
				if _, err := c.CreatePod(api.WithNamespace(ctx, api.NamespaceDefault), &p); err != nil {
					failed.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		return fmt.Errorf("creating pods: %v", err)
	}
	return ctx.Err()
}
