package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"time"

	goetcd "github.com/coreos/go-etcd/etcd"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/tools"
	"github.com/prometheus/procfs"
)

// readerPairsSetup says how the pairs price the reader of the write-ahead
// log at clients, for the page.
func readerPairsSetup(clients int) string {
	return fmt.Sprintf("The reader of the write-ahead log is priced in pairs of levels at %d clients inside one apiserver's life, ", clients) +
		"on one data directory, the reader's process started with it: for a level without it the reader is stopped (SIGSTOP: it holds " +
		"its files open and uses no CPU), for a level with it the reader is let go on (SIGCONT) and waits until it holds every pod " +
		"created so far before the load begins. After each level one recursive delete empties the pods from etcd, so that every level " +
		"starts on an empty store, and the order alternates, without then with, then with then without; one unmeasured load warms the " +
		"apiserver first. Pairs on fresh apiservers spread between starts by more than the price to be measured."
}

// readerPairs prices the laboratory's reader of the write-ahead log on one
// bare apiserver at clients: n pairs of levels without the reader and with
// it, the reader's process stopped for each level without it, the order
// alternating pair by pair. The pairs are measured inside one apiserver's
// life because the bare apiserver's rate moves between fresh starts by
// more than the price to be measured (calibrations on the quiet machine).
func readerPairs(ctx context.Context, binDir, dir string, n, clients int, warmup, d time.Duration) ([]results.Pair, error) {
	st, err := stack.Start(bareAPIServer(binDir, filepath.Join(dir, "apiserver-wal"), stack.LabWAL))
	if err != nil {
		return nil, fmt.Errorf("starting a bare apiserver with the reader of its log: %v", err)
	}
	defer st.Stop()
	watch := watchReader(st, stack.LabWAL)
	if watch == nil {
		return nil, fmt.Errorf("the bare apiserver's stack started no reader of its log")
	}
	r := pausable{pid: watch.pid}
	// Let go of the reader before the stack stops it: a stopped process
	// holds SIGTERM until it is continued.
	defer r.resume()
	c, err := benchClient(st)
	if err != nil {
		return nil, err
	}
	etcd := tools.NewEtcdClient(st.EtcdURLs())
	// index is the etcd index of the last delete, which the reader must
	// reach before a level with it, and emptied when it was made.
	var index uint64
	var emptied time.Time
	// level measures one load, with the reader let go on or stopped, and
	// empties the store after it. Every level begins pairSettle after the
	// store was emptied, so that each finds the apiserver as rested: a
	// level with the reader must first wait for it to catch up, which
	// would otherwise give only those levels a pause before their load.
	level := func(with bool) (results.Level, float64, error) {
		if with {
			if err := r.resume(); err != nil {
				return results.Level{}, 0, err
			}
			// Caught up before the load, so that the level prices the
			// reader reading what the level writes, and no more.
			if !reachIndex(ctx, watch.store, index) {
				return results.Level{}, 0, fmt.Errorf("the reader of the log did not reach index %d within %s of being let go on", index, results.ReaderWait)
			}
		} else if err := r.pause(); err != nil {
			return results.Level{}, 0, err
		}
		time.Sleep(time.Until(emptied.Add(pairSettle)))
		// Only the process's CPU is read from a stopped reader: it
		// answers nothing until it is continued.
		var w *readerWatch
		if with {
			w = watchReader(st, stack.LabWAL)
		}
		cpu0, _ := sampler.ProcessCPU(r.pid)
		l, last := createLoad(ctx, c, clients, warmup, d)
		cpu, _ := sampler.ProcessCPU(r.pid)
		l.Reader = w.caughtUp(ctx, last)
		if err := emptyPods(etcd, &index); err != nil {
			return l, 0, err
		}
		emptied = time.Now()
		return l, cpu - cpu0, nil
	}
	// The warm-up: the apiserver's first load is its slowest.
	if _, _, err := level(true); err != nil {
		return nil, err
	}
	var pairs []results.Pair
	for i := 0; i < n && ctx.Err() == nil; i++ {
		pair := results.Pair{WithFirst: i%2 == 1}
		for _, with := range []bool{pair.WithFirst, !pair.WithFirst} {
			var err error
			if with {
				pair.With, _, err = level(true)
			} else {
				pair.Without, pair.ReaderCPUWithout, err = level(false)
			}
			if err != nil {
				return pairs, err
			}
		}
		pairs = append(pairs, pair)
	}
	return pairs, ctx.Err()
}

// pairSettle is how long after the store was emptied each of the
// reader's levels begins: time for the apiserver to collect the deleted
// pods' garbage, and for the reader, where it runs, to catch up.
const pairSettle = 2 * time.Second

// emptyPods deletes every pod from the bare apiserver's etcd in one
// recursive delete, and sets *index to the delete's etcd index. Each
// level then starts on an empty store: the pods of the levels before it
// would otherwise grow the apiserver's heap (its etcd member keeps the v2
// store in memory), and its rate fell level by level, which biases a
// pair by its order.
func emptyPods(c *goetcd.Client, index *uint64) error {
	resp, err := c.Delete(etcdpods.Prefix, true)
	if err != nil {
		return fmt.Errorf("emptying the calibration's pods: %v", err)
	}
	*index = resp.EtcdIndex
	return nil
}

// pausable stops and continues one process.
type pausable struct {
	pid    int
	paused bool
}

func (p *pausable) pause() error {
	if p.paused {
		return nil
	}
	if err := syscall.Kill(p.pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("stopping the reader of the log (pid %d): %v", p.pid, err)
	}
	p.paused = true
	// The signal is delivered on the way: wait until the kernel says the
	// process is stopped, so that its CPU counted from here is none.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if s, err := procfs.NewProc(p.pid); err == nil {
			if st, err := s.Stat(); err == nil && st.State == "T" {
				return nil
			}
		}
	}
	return fmt.Errorf("the reader of the log (pid %d) was sent SIGSTOP and did not stop within 5 s", p.pid)
}

func (p *pausable) resume() error {
	if !p.paused {
		return nil
	}
	if err := syscall.Kill(p.pid, syscall.SIGCONT); err != nil {
		return fmt.Errorf("continuing the reader of the log (pid %d): %v", p.pid, err)
	}
	p.paused = false
	return nil
}
