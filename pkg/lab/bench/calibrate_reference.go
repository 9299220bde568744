package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// referenceRuns measures the reference runs times, each on a fresh
// cluster, and keeps the medians: a single run would make every ratio to
// it as noisy as that one run.
func referenceRuns(ctx context.Context, binDir, dir string, n, runs int, seed int64) (results.ReferenceScaleUp, error) {
	var creates, running []float64
	// Run 0 warms up and is not kept: the first cluster after the
	// calibration starts cold binaries and meets the calibration's writes
	// still on their way to disk; it came out the slowest of its kind in
	// the benchmarks that showed the spread.
	for i := 0; i <= runs && ctx.Err() == nil; i++ {
		one, err := calibrateReference(ctx, binDir, filepath.Join(dir, fmt.Sprint(i)), n, seed)
		if err != nil {
			return results.ReferenceScaleUp{}, err
		}
		if i == 0 {
			continue
		}
		creates = append(creates, one.CreateSeconds)
		running = append(running, one.RunningSeconds)
	}
	if len(running) == 0 {
		return results.ReferenceScaleUp{}, ctx.Err()
	}
	c, r := results.Summarize(creates), results.Summarize(running)
	return results.ReferenceScaleUp{Replicas: n, CreateSeconds: c.Median, RunningSeconds: r.Median, Create: &c, Running: &r}, nil
}

// referenceSetup says how the reference scale-up is measured.
const referenceSetup = "scale-up's own cluster (apiserver, 10 hollow nodes starting pods after 200 ms, the same seed) with no " +
	"controller-manager; the benchmark creates the N pods itself from 64 concurrent clients and times them as the scenario " +
	"does: creates returned, then all N running on the pod watch, polled every 100 ms. A first run warms up and is not kept."

// calibrateReference creates n pods as fast as the stack allows and times them.
func calibrateReference(ctx context.Context, binDir, dir string, n int, seed int64) (results.ReferenceScaleUp, error) {
	sc, err := scripts.Get("scale-up")
	if err != nil {
		return results.ReferenceScaleUp{}, err
	}
	sz := scenario.Size{Label: fmt.Sprintf("N=%d", n), Replicas: n}
	// scenario.Start brings the same pod counter the scenarios use, so the
	// reference is timed exactly as a manager is.
	cluster := sc.Cluster
	cluster.ControllerManagers = 0
	out, err := scenario.Start(&scenario.Scenario{Name: "reference", Cluster: cluster}, scenario.Legacy, sz, scenario.Options{BinDir: binDir, Dir: dir, Seed: seed})
	if err != nil {
		return results.ReferenceScaleUp{}, fmt.Errorf("starting a cluster without a manager: %v", err)
	}
	defer func() {
		out.Close()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := client.New(&client.Config{Host: out.Stack.APIURL, Sync: true, UserAgent: "rcbench"})
	if err != nil {
		return results.ReferenceScaleUp{}, err
	}
	counter := out.Sampler.Pods

	began := time.Now()
	err = runner.CreatePods(ctx, c, "web", n)
	created := time.Since(began)
	if err != nil {
		return results.ReferenceScaleUp{}, err
	}
	err = scenario.WaitFor(ctx, 2*time.Minute, fmt.Sprintf("%d running pods", n), func() (bool, string) {
		got := counter.Counts()
		return got.Running == n, fmt.Sprintf("%d running", got.Running)
	})
	if err != nil {
		return results.ReferenceScaleUp{}, err
	}
	return results.ReferenceScaleUp{Replicas: n, CreateSeconds: created.Seconds(), RunningSeconds: time.Since(began).Seconds()}, nil
}
