package controller

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// counter reads one of the manager's counters.
func counter(t *testing.T, c prometheus.Counter) float64 {
	t.Helper()
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	families, err := reg.Gather()
	if err != nil || len(families) != 1 {
		t.Fatalf("gathering %v: %v", c, err)
	}
	return families[0].GetMetric()[0].GetCounter().GetValue()
}
