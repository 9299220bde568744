package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// ListPods is how many running pods the LIST calibration reads.
const ListPods = 1000

// Read paths of the apiserver's pods, as its -read_pod_status flag picks
// them.
const (
	ReadV04    = "v0.4"
	ReadStored = "stored"
)

// ListCost is what one LIST of every pod cost the apiserver on a cluster of
// Pods running pods, read one way.
type ListCost struct {
	// ReadPath is ReadV04 (status computed per pod, one minion LIST per
	// bound pod) or ReadStored (pods as stored).
	ReadPath string  `json:"readPath"`
	Pods     int     `json:"pods"`
	Lists    int     `json:"lists"`
	P50Ms    float64 `json:"p50Ms"`
	MaxMs    float64 `json:"maxMs"`
	// Bytes is the size of one answer.
	Bytes int `json:"bytes"`
	// Per LIST, from the apiserver's /metrics before and after: its CPU
	// time, the bytes and objects it allocated, and the requests it sent
	// to itself.
	CPUMs            float64 `json:"cpuMs"`
	AllocBytes       float64 `json:"allocBytes"`
	Allocs           float64 `json:"allocs"`
	LoopbackRequests float64 `json:"loopbackRequests"`
}

// listSetup says how the LIST cost is measured.
const listSetup = "a cluster of apiserver and 10 hollow nodes, no controller-manager, once with the apiserver's default " +
	"-read_pod_status (v0.4: each pod's status computed on the way out, one LIST of the minions per bound pod, which the " +
	"apiserver sends itself over loopback HTTP) and once with -read_pod_status=false (pods as stored). The benchmark " +
	"creates 1 000 pods from 64 clients, waits until the hollow nodes have them all running, then sends one GET " +
	"/api/v1beta1/pods at a time, unthrottled, for at least 3 s and 5 LISTs. CPU, allocations and loopback requests " +
	"are the apiserver's own counters (process_cpu_seconds_total, go_memstats_alloc_bytes_total, go_memstats_mallocs_total, " +
	"apiserver_request_total of component apiserver) read before and after and divided by the LISTs; they include the " +
	"one /metrics scrape between and the idle hollow nodes' watch, which sends nothing once every pod runs."

// String gives a LIST cost in one line for progress output.
func (l ListCost) String() string {
	return fmt.Sprintf("LIST of %d pods read %-6s: p50 %6.1f ms over %d LISTs, %.0f KB, apiserver CPU %.1f ms, %.1f MB and %.0f objects allocated, %.0f loopback requests",
		l.Pods, l.ReadPath, l.P50Ms, l.Lists, float64(l.Bytes)/1024, l.CPUMs, l.AllocBytes/1e6, l.Allocs, l.LoopbackRequests)
}

// calibrateList measures LISTs of ListPods running pods read one way.
func calibrateList(ctx context.Context, binDir, dir, readPath string, seed int64) (ListCost, error) {
	cfg := stack.Config{BinDir: binDir, Dir: dir, Nodes: 10, StartDelay: 200 * time.Millisecond,
		HollowNodeArgs: []string{fmt.Sprintf("-seed=%d", seed)}}
	if readPath == ReadStored {
		cfg.APIServerArgs = []string{"-read_pod_status=false"}
	}
	st, err := stack.Start(cfg)
	if err != nil {
		return ListCost{}, fmt.Errorf("starting a cluster: %v", err)
	}
	defer func() {
		st.Stop()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "rcbench"})
	if err != nil {
		return ListCost{}, err
	}
	if err := createRunning(ctx, c, ListPods); err != nil {
		return ListCost{}, err
	}

	httpClient := &http.Client{Transport: &http.Transport{}}
	defer httpClient.CloseIdleConnections()
	url := st.APIURL + "/api/v1beta1/pods"
	before, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		return ListCost{}, err
	}
	var latencies []float64
	bytes := 0
	began := time.Now()
	for len(latencies) < 5 || time.Since(began) < 3*time.Second {
		if ctx.Err() != nil {
			return ListCost{}, ctx.Err()
		}
		seconds, n, err := timedGet(httpClient, url)
		if err != nil {
			return ListCost{}, err
		}
		latencies = append(latencies, seconds*1000)
		bytes = n
	}
	after, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		return ListCost{}, err
	}
	n := len(latencies)
	delta := func(name string, match map[string]string) float64 { return perRequest(before, after, name, match, n) }
	sort.Float64s(latencies)
	return ListCost{
		ReadPath:         readPath,
		Pods:             ListPods,
		Lists:            len(latencies),
		P50Ms:            percentileOf(latencies, 50),
		MaxMs:            latencies[len(latencies)-1],
		Bytes:            bytes,
		CPUMs:            delta("process_cpu_seconds_total", nil) * 1000,
		AllocBytes:       delta("go_memstats_alloc_bytes_total", nil),
		Allocs:           delta("go_memstats_mallocs_total", nil),
		LoopbackRequests: delta("apiserver_request_total", map[string]string{"component": "apiserver"}),
	}, nil
}

// timedGet GETs url, reads the answer whole and returns how long that
// took and the answer's size; an answer other than 200 is an error.
func timedGet(c *http.Client, url string) (seconds float64, size int, err error) {
	start := time.Now()
	resp, err := c.Get(url)
	if err != nil {
		return 0, 0, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return time.Since(start).Seconds(), int(n), nil
}

// perRequest is how much the counter name (its series matching match)
// grew between two scrapes, divided by the n requests sent between them.
func perRequest(before, after sampler.Metrics, name string, match map[string]string, n int) float64 {
	return (after.Sum(name, match) - before.Sum(name, match)) / float64(n)
}

// createRunning creates n pods from FloorClients clients and waits until a
// LIST shows them all running.
func createRunning(ctx context.Context, c client.Interface, n int) error {
	if err := createPods(ctx, c, "list", n); err != nil {
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
