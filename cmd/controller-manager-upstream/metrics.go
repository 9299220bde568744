package main

// Upstream's replication manager counts none of what the benchmark reads
// from a manager besides the Go runtime's and the process's series. Its
// workqueue ("replicationmanager") is instrumented, though: a key is
// done once per sync, and put back rate-limited once per failed sync. The
// provider below counts those into the series our managers export,
// replication_manager_syncs_total and replication_manager_sync_errors_total;
// the adapter counts creates, deletes and status writes.

import (
	"github.com/kube-rewind/kube-rewind/pkg/modern/queuemetrics"
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"
)

// replicationQueue is the name upstream's ReplicationManager gives its
// queue.
const replicationQueue = "replicationmanager"

// syncCounter is the workqueue metrics provider, counting the replication
// manager's syncs and failed syncs on top.
type syncCounter struct {
	*queuemetrics.Provider
	syncs, syncErrors prometheus.Counter
}

func newSyncCounter(p *queuemetrics.Provider, r prometheus.Registerer) *syncCounter {
	c := &syncCounter{
		Provider: p,
		syncs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "replication_manager_syncs_total",
			Help: "Replication controller syncs run: keys done by upstream's workqueue. Counted at the queue: upstream has no such counter.",
		}),
		syncErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "replication_manager_sync_errors_total",
			Help: "Syncs that returned an error: keys put back rate-limited by upstream's workqueue. Counted at the queue: upstream has no such counter.",
		}),
	}
	r.MustRegister(c.syncs, c.syncErrors)
	return c
}

// NewWorkDurationMetric observes one sync of a key, for every queue; the
// replication manager's are counted too.
func (c *syncCounter) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	h := c.Provider.NewWorkDurationMetric(name)
	if name != replicationQueue {
		return h
	}
	return countingHistogram{h, c.syncs}
}

// NewRetriesMetric counts a key put back after a failed sync.
func (c *syncCounter) NewRetriesMetric(name string) workqueue.CounterMetric {
	m := c.Provider.NewRetriesMetric(name)
	if name != replicationQueue {
		return m
	}
	return countingCounter{m, c.syncErrors}
}

type countingHistogram struct {
	workqueue.HistogramMetric
	n prometheus.Counter
}

func (h countingHistogram) Observe(v float64) {
	h.HistogramMetric.Observe(v)
	h.n.Inc()
}

type countingCounter struct {
	workqueue.CounterMetric
	n prometheus.Counter
}

func (c countingCounter) Inc() {
	c.CounterMetric.Inc()
	c.n.Inc()
}
