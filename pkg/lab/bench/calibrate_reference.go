package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// ReferenceScaleUp is the benchmark standing in for a controller: it
// creates N pods from FloorClients concurrent clients on scale-up's own
// cluster, with hollow nodes but no controller-manager, and times them as
// the scenario times a manager. It has no watch to follow, no batches and
// no limit, and the hollow nodes' binds and status writes compete with its
// creates as they do with a manager's, so it is the pace a controller of
// FloorClients workers could reach on this stack (a manager with more
// requests in flight, as legacy's N, can beat it).
type ReferenceScaleUp struct {
	Replicas int `json:"replicas"`
	// CreateSeconds is when the last create returned, the median over
	// the runs.
	CreateSeconds float64 `json:"createSeconds"`
	// RunningSeconds is when the pod watch first saw N pods running, the
	// median over the runs.
	RunningSeconds float64 `json:"runningSeconds"`
	// Create and Running hold every run's figures.
	Create  *Stats `json:"create,omitempty"`
	Running *Stats `json:"running,omitempty"`
}

// referenceRuns measures the reference runs times, each on a fresh
// cluster, and keeps the medians: a single run would make every ratio to
// it as noisy as that one run.
func referenceRuns(ctx context.Context, binDir, dir string, n, runs int, seed int64) (ReferenceScaleUp, error) {
	var creates, running []float64
	// Run 0 warms up and is not kept: the first cluster after the
	// calibration starts cold binaries and meets the calibration's writes
	// still on their way to disk; it came out the slowest of its kind in
	// the benchmarks that showed the spread.
	for i := 0; i <= runs && ctx.Err() == nil; i++ {
		one, err := calibrateReference(ctx, binDir, filepath.Join(dir, fmt.Sprint(i)), n, seed)
		if err != nil {
			return ReferenceScaleUp{}, err
		}
		if i == 0 {
			continue
		}
		creates = append(creates, one.CreateSeconds)
		running = append(running, one.RunningSeconds)
	}
	if len(running) == 0 {
		return ReferenceScaleUp{}, ctx.Err()
	}
	c, r := Summarize(creates), Summarize(running)
	return ReferenceScaleUp{Replicas: n, CreateSeconds: c.Median, RunningSeconds: r.Median, Create: &c, Running: &r}, nil
}

// referenceSetup says how the reference scale-up is measured.
const referenceSetup = "scale-up's own cluster (apiserver, 10 hollow nodes starting pods after 200 ms, the same seed) with no " +
	"controller-manager; the benchmark creates the N pods itself from 64 concurrent clients and times them as the scenario " +
	"does: creates returned, then all N running on the pod watch, polled every 100 ms. A first run warms up and is not kept."

// calibrateReference creates n pods as fast as the stack allows and times them.
func calibrateReference(ctx context.Context, binDir, dir string, n int, seed int64) (ReferenceScaleUp, error) {
	sc, err := scenario.Get("scale-up")
	if err != nil {
		return ReferenceScaleUp{}, err
	}
	sz := scenario.Size{Label: fmt.Sprintf("N=%d", n), Replicas: n}
	// scenario.Start brings the same pod counter the scenarios use, so the
	// reference is timed exactly as a manager is.
	cluster := sc.Cluster
	cluster.ControllerManagers = 0
	out, err := scenario.Start(&scenario.Scenario{Name: "reference", Cluster: cluster}, scenario.Legacy, sz, scenario.Options{BinDir: binDir, Dir: dir, Seed: seed})
	if err != nil {
		return ReferenceScaleUp{}, fmt.Errorf("starting a cluster without a manager: %v", err)
	}
	defer func() {
		out.Close()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := client.New(&client.Config{Host: out.Stack.APIURL, Sync: true, UserAgent: "rcbench"})
	if err != nil {
		return ReferenceScaleUp{}, err
	}
	counter := out.Sampler.Pods

	began := time.Now()
	err = createPods(ctx, c, "web", n)
	created := time.Since(began)
	if err != nil {
		return ReferenceScaleUp{}, err
	}
	err = scenario.WaitFor(ctx, 2*time.Minute, fmt.Sprintf("%d running pods", n), func() (bool, string) {
		got := counter.Counts()
		return got.Running == n, fmt.Sprintf("%d running", got.Running)
	})
	if err != nil {
		return ReferenceScaleUp{}, err
	}
	return ReferenceScaleUp{Replicas: n, CreateSeconds: created.Seconds(), RunningSeconds: time.Since(began).Seconds()}, nil
}

// createPods creates n pods of a controller's template labelled app=name,
// as the manager would, from FloorClients clients at once.
func createPods(ctx context.Context, c client.Interface, name string, n int) error {
	rc := scenario.Controller(name, n, map[string]string{"app": name}, nil)
	template := api.Pod{Labels: rc.DesiredState.PodTemplate.Labels, DesiredState: rc.DesiredState.PodTemplate.DesiredState}
	return scenario.CreatePods(ctx, c, template, n, FloorClients)
}
