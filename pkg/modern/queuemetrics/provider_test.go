package queuemetrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"k8s.io/client-go/util/workqueue"
)

func TestANamedQueueReportsItsDepthAddsAndRetries(t *testing.T) {
	reg := prometheus.NewRegistry()
	p := NewProvider(reg)
	q := workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[string](),
		workqueue.TypedRateLimitingQueueConfig[string]{Name: "replicationmanager", MetricsProvider: p})
	defer q.ShutDown()

	q.Add("default/a")
	q.Add("default/b")
	q.Add("default/a")
	if got := value(p.depth.WithLabelValues("replicationmanager")); got != 2 {
		t.Errorf("depth %v, want 2 (a duplicate add collapses)", got)
	}
	if got := value(p.adds.WithLabelValues("replicationmanager")); got != 2 {
		t.Errorf("adds %v, want 2", got)
	}
	key, _ := q.Get()
	q.AddRateLimited(key)
	q.Done(key)
	if got := value(p.retries.WithLabelValues("replicationmanager")); got != 1 {
		t.Errorf("retries %v, want 1", got)
	}
}

// value reads a gauge or counter without the testutil package.
func value(m prometheus.Metric) float64 {
	var out dto.Metric
	if err := m.Write(&out); err != nil {
		panic(err)
	}
	if out.Gauge != nil {
		return out.Gauge.GetValue()
	}
	return out.Counter.GetValue()
}
