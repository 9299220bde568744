package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// listSetup says how the LIST cost is measured.
const listSetup = "a cluster of apiserver and 10 hollow nodes, no controller-manager, once with the apiserver's default " +
	"-read_pod_status (v0.4: each pod's status computed on the way out, one LIST of the minions per bound pod, which the " +
	"apiserver sends itself over loopback HTTP) and once with -read_pod_status=false (pods as stored). The benchmark " +
	"creates 1 000 pods from 64 clients, waits until the hollow nodes have them all running, then sends one GET " +
	"/api/v1beta1/pods at a time, unthrottled, for at least 3 s and 5 LISTs. CPU, allocations and loopback requests " +
	"are the apiserver's own counters (process_cpu_seconds_total, go_memstats_alloc_bytes_total, go_memstats_mallocs_total, " +
	"apiserver_request_total of component apiserver) read before and after and divided by the LISTs; they include the " +
	"one /metrics scrape between and the idle hollow nodes' watch, which sends nothing once every pod runs."

// calibrateList measures LISTs of ListPods running pods read one way.
func calibrateList(ctx context.Context, binDir, dir, readPath string, seed int64) (results.ListCost, error) {
	cfg := stack.Config{BinDir: binDir, Dir: dir, Nodes: 10, StartDelay: 200 * time.Millisecond,
		HollowNodeArgs: []string{fmt.Sprintf("-seed=%d", seed)}}
	if readPath == results.ReadStored {
		cfg.APIServerArgs = []string{"-read_pod_status=false"}
	}
	st, err := stack.Start(cfg)
	if err != nil {
		return results.ListCost{}, fmt.Errorf("starting a cluster: %v", err)
	}
	defer func() {
		st.Stop()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := benchClient(st)
	if err != nil {
		return results.ListCost{}, err
	}
	if err := createRunning(ctx, c, runner.ListPods); err != nil {
		return results.ListCost{}, err
	}

	httpClient := &http.Client{Transport: &http.Transport{}}
	defer httpClient.CloseIdleConnections()
	url := st.APIURL + "/api/v1beta1/pods"
	before, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		return results.ListCost{}, err
	}
	var latencies []float64
	bytes := 0
	began := time.Now()
	for len(latencies) < 5 || time.Since(began) < 3*time.Second {
		if ctx.Err() != nil {
			return results.ListCost{}, ctx.Err()
		}
		seconds, n, err := runner.TimedGet(httpClient, url)
		if err != nil {
			return results.ListCost{}, err
		}
		latencies = append(latencies, seconds*1000)
		bytes = n
	}
	after, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		return results.ListCost{}, err
	}
	n := len(latencies)
	delta := func(name string, match map[string]string) float64 {
		return runner.PerRequest(before, after, name, match, n)
	}
	sort.Float64s(latencies)
	return results.ListCost{
		ReadPath:         readPath,
		Pods:             runner.ListPods,
		Lists:            len(latencies),
		P50Ms:            stats.Percentile(latencies, 50),
		MaxMs:            latencies[len(latencies)-1],
		Bytes:            bytes,
		CPUMs:            delta("process_cpu_seconds_total", nil) * 1000,
		AllocBytes:       delta("go_memstats_alloc_bytes_total", nil),
		Allocs:           delta("go_memstats_mallocs_total", nil),
		LoopbackRequests: delta("apiserver_request_total", map[string]string{"component": "apiserver"}),
	}, nil
}

// createRunning creates n pods from FloorClients clients and waits until a
// LIST shows them all running.
func createRunning(ctx context.Context, c client.Interface, n int) error {
	if err := runner.CreatePods(ctx, c, "list", n); err != nil {
		return err
	}
	return scenario.WaitFor(ctx, 2*time.Minute, fmt.Sprintf("%d running pods", n), func() (bool, string) {
		list, err := c.ListPods(api.NewDefaultContext(), labels.Everything())
		if err != nil {
			return false, err.Error()
		}
		running := 0
		for _, p := range list.Items {
			if p.CurrentState.Status == api.PodRunning {
				running++
			}
		}
		return running == n, fmt.Sprintf("%d running", running)
	})
}
