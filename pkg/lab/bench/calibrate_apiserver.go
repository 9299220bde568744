package bench

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/api"
	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// apiserverSetup says how the apiserver's create path is measured.
const apiserverSetup = "the stack's own apiserver process (embedded etcd, same flags as in every scenario), alone: no hollow " +
	"nodes, no controller-manager, and no laboratory reading pods, so no reader of the laboratory's: in every scenario the " +
	"laboratory reads the embedded member's write-ahead log by default, in a process of its own on the same cores. Each " +
	"client POSTs fresh pods without ids, as the manager does, through the project's " +
	"Go client with sync=true, so every answer means the pod is in etcd. A fresh apiserver and data directory per level. " +
	"One more level, apiserver+learner at 64 clients, is the same with the laboratory's learner joined and nothing reading it: " +
	"the learner's price, which a run reading through it pays (-lab_reader=learner, and an apiserver on members started apart)."

// calibrationPod returns the pod a replication manager would create for
// the scenarios' controllers: the same template, no id.
func calibrationPod() *api.Pod {
	rc := scenario.Controller("calibrate", 1, map[string]string{"app": "calibrate"}, nil)
	return &api.Pod{
		Labels:       rc.DesiredState.PodTemplate.Labels,
		DesiredState: rc.DesiredState.PodTemplate.DesiredState,
	}
}

// bareAPIServer is the stack the calibration measures: the apiserver
// alone. Nothing reads its pods, so it starts no learner (stack.LabNone),
// which would cost the apiserver's embedded member a follower's share of
// every write and take the learner's CPU from the same cores; reader
// stack.LabLearner starts one all the same, to price it.
func bareAPIServer(binDir, dir, reader string) stack.Config {
	return stack.Config{BinDir: binDir, Dir: dir, NoHollowNodes: true, LabReader: reader}
}

// benchClient is the calibration's client of st's apiserver: synchronous
// writes, under the benchmark's name.
func benchClient(st *stack.Stack) (*client.Client, error) {
	return client.New(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "rcbench"})
}

// calibrateAPIServer measures pod POSTs per second against a bare
// apiserver at one concurrency level.
func calibrateAPIServer(ctx context.Context, binDir, dir, reader string, clients int, warmup, d time.Duration) (results.Level, error) {
	st, err := stack.Start(bareAPIServer(binDir, dir, reader))
	if err != nil {
		return results.Level{}, fmt.Errorf("starting a bare apiserver: %v", err)
	}
	defer func() {
		st.Stop()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := benchClient(st)
	if err != nil {
		return results.Level{}, err
	}
	watch := watchReader(st, reader)
	l, last := createLoad(ctx, c, clients, warmup, d)
	l.Reader = watch.caughtUp(ctx, last)
	return l, nil
}

// createLoad POSTs the calibration's pod from clients at once through c
// (load) and returns the level with the resourceVersion of the last pod
// created.
func createLoad(ctx context.Context, c *client.Client, clients int, warmup, d time.Duration) (results.Level, uint64) {
	pod := calibrationPod()
	var last atomic.Uint64
	l := load(ctx, "apiserver", clients, warmup, d, func(ctx context.Context, worker, i int) error {
		p := *pod
		made, err := c.CreatePod(api.WithNamespace(ctx, api.NamespaceDefault), &p)
		if err == nil {
			for v := made.ResourceVersion; ; {
				seen := last.Load()
				if v <= seen || last.CompareAndSwap(seen, v) {
					break
				}
			}
		}
		return err
	})
	return l, last.Load()
}

// readerWatch follows the laboratory's reader of the write-ahead log over
// one level: its CPU from the start of the load, and when it holds the
// last pod created.
type readerWatch struct {
	url   string
	store *etcdpods.Source
	pid   int
	cpu0  float64
	start time.Time
	// read0 and apply0 are its polls' CPU counters at the start.
	read0, apply0 float64
}

// pollCPU is what the reader at url says its polls spent reading the log
// and applying it, in CPU seconds since it started.
func pollCPU(url string) (read, apply float64) {
	m, err := sampler.ScrapeWith(http.DefaultClient, url+"/metrics")
	if err != nil {
		return 0, 0
	}
	return m.Sum("walpods_read_cpu_seconds_total", nil), m.Sum("walpods_apply_cpu_seconds_total", nil)
}

// watchReader begins to follow st's reader of the log, if reader is
// stack.LabWAL; nil otherwise.
func watchReader(st *stack.Stack, reader string) *readerWatch {
	if reader != stack.LabWAL {
		return nil
	}
	for _, p := range st.Processes() {
		if p.Name == stack.ProcessLabReader {
			w := &readerWatch{url: st.WALReaderURL(), store: etcdpods.New([]string{st.WALReaderURL()}), pid: p.Pid(), start: time.Now()}
			w.read0, w.apply0 = pollCPU(w.url)
			w.cpu0, _ = sampler.ProcessCPU(w.pid)
			return w
		}
	}
	return nil
}

// caughtUp waits, at most results.ReaderWait, until the reader's store is
// at index last or beyond (the resourceVersion of the last pod created),
// and says what the reader cost until then.
func (w *readerWatch) caughtUp(ctx context.Context, last uint64) *results.ReaderCost {
	if w == nil {
		return nil
	}
	end := time.Now()
	rc := &results.ReaderCost{}
	if reachIndex(ctx, w.store, last) {
		rc.CaughtUp, rc.CatchUp = true, time.Since(end).Seconds()
	}
	cpu, _ := sampler.ProcessCPU(w.pid)
	rc.CPU, rc.Seconds = cpu-w.cpu0, time.Since(w.start).Seconds()
	read, apply := pollCPU(w.url)
	rc.ReadCPU, rc.ApplyCPU = read-w.read0, apply-w.apply0
	return rc
}

// reachIndex waits, at most results.ReaderWait, until the reader's store
// is at index last or beyond, and says whether it got there.
func reachIndex(ctx context.Context, store *etcdpods.Source, last uint64) bool {
	ctx, cancel := context.WithTimeout(ctx, results.ReaderWait)
	defer cancel()
	for {
		if index, err := store.Index(); err == nil && index >= last {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}
