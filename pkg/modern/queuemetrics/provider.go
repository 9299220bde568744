package queuemetrics

import (
	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/client-go/util/workqueue"
)

// Provider creates the series of each named queue in one registry.
type Provider struct {
	depth          *prometheus.GaugeVec
	adds           *prometheus.CounterVec
	latency        *prometheus.HistogramVec
	workDuration   *prometheus.HistogramVec
	unfinished     *prometheus.GaugeVec
	longestRunning *prometheus.GaugeVec
	retries        *prometheus.CounterVec
}

var _ workqueue.MetricsProvider = &Provider{}

// NewProvider registers the workqueue metrics with r and returns the
// provider to hand to workqueue.SetProvider or a queue's config.
func NewProvider(r prometheus.Registerer) *Provider {
	buckets := prometheus.ExponentialBuckets(10e-9, 10, 12)
	p := &Provider{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "workqueue_depth", Help: "Keys waiting in the workqueue.",
		}, []string{"name"}),
		adds: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workqueue_adds_total", Help: "Adds handled by the workqueue.",
		}, []string{"name"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "workqueue_queue_duration_seconds", Help: "Time a key waits in the workqueue before a worker takes it.", Buckets: buckets,
		}, []string{"name"}),
		workDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "workqueue_work_duration_seconds", Help: "Time a worker spends on one key.", Buckets: buckets,
		}, []string{"name"}),
		unfinished: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "workqueue_unfinished_work_seconds", Help: "Seconds of work in progress not yet observed by work_duration.",
		}, []string{"name"}),
		longestRunning: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "workqueue_longest_running_processor_seconds", Help: "Seconds the longest-running worker has been on its key.",
		}, []string{"name"}),
		retries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "workqueue_retries_total", Help: "Rate-limited re-adds (retries after a failed sync).",
		}, []string{"name"}),
	}
	r.MustRegister(p.depth, p.adds, p.latency, p.workDuration, p.unfinished, p.longestRunning, p.retries)
	return p
}

// NewDepthMetric returns the depth gauge of queue name.
func (p *Provider) NewDepthMetric(name string) workqueue.GaugeMetric {
	return p.depth.WithLabelValues(name)
}

// NewAddsMetric returns the adds counter of queue name.
func (p *Provider) NewAddsMetric(name string) workqueue.CounterMetric {
	return p.adds.WithLabelValues(name)
}

// NewLatencyMetric returns the wait-time histogram of queue name.
func (p *Provider) NewLatencyMetric(name string) workqueue.HistogramMetric {
	return p.latency.WithLabelValues(name)
}

// NewWorkDurationMetric returns the work-time histogram of queue name.
func (p *Provider) NewWorkDurationMetric(name string) workqueue.HistogramMetric {
	return p.workDuration.WithLabelValues(name)
}

// NewUnfinishedWorkSecondsMetric returns the unfinished-work gauge of queue
// name.
func (p *Provider) NewUnfinishedWorkSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.unfinished.WithLabelValues(name)
}

// NewLongestRunningProcessorSecondsMetric returns the longest-running gauge
// of queue name.
func (p *Provider) NewLongestRunningProcessorSecondsMetric(name string) workqueue.SettableGaugeMetric {
	return p.longestRunning.WithLabelValues(name)
}

// NewRetriesMetric returns the retries counter of queue name.
func (p *Provider) NewRetriesMetric(name string) workqueue.CounterMetric {
	return p.retries.WithLabelValues(name)
}
