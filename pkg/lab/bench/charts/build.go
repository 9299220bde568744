package charts

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// SizeCharts are the charts of one scenario at one size.
type SizeCharts struct {
	Scenario string
	Size     string
	Charts   []Chart
}

// Base names a scenario size's charts: scale-up_N=1000.
func Base(scenarioName, size string) string {
	return scenarioName + "_" + results.Slug(size)
}

// Build renders every chart of the report: the calibration first,
// then per scenario and size the pods running, the managers' goroutines,
// the requests by verb and the figures side by side.
func Build(sum *results.Summary, runs []results.RunRecord, png bool) (*Chart, []SizeCharts) {
	var cal *Chart
	if c, ok := calibrationChart(sum.Calibration, png); ok {
		cal = &c
	}
	var out []SizeCharts
	for _, sc := range sum.Scenarios {
		for _, sz := range sc.Sizes {
			base := Base(sc.Name, sz.Label)
			med := medianRuns(sz, sc.Name, runs)
			sc2 := SizeCharts{Scenario: sc.Name, Size: sz.Label}
			if c, ok := timeChart(base+"_pods", fmt.Sprintf("%s %s: pods running", sc.Name, sz.Label), "pods running", "pods.running", 1, sc.Name, med, png); ok {
				sc2.Charts = append(sc2.Charts, c)
			}
			if c, ok := timeChart(base+"_goroutines", fmt.Sprintf("%s %s: controller-manager goroutines", sc.Name, sz.Label), "goroutines", "cm.goroutines", 1, sc.Name, med, png); ok {
				sc2.Charts = append(sc2.Charts, c)
			}
			if c, ok := verbChart(base+"_requests", fmt.Sprintf("%s %s: apiserver requests per second, by verb", sc.Name, sz.Label), sc.Name, med, png); ok {
				sc2.Charts = append(sc2.Charts, c)
			}
			if c, ok := barsChart(base+"_figures", fmt.Sprintf("%s %s: every figure, per variant", sc.Name, sz.Label), sz, png); ok {
				sc2.Charts = append(sc2.Charts, c)
			}
			out = append(out, sc2)
		}
	}
	if sum.Options.Sweep {
		if c, ok := sweepChart(sum, png); ok {
			out = append([]SizeCharts{{Scenario: SweepSet, Charts: []Chart{c}}}, out...)
		}
	}
	return cal, out
}

// SweepSet is the name the sweep's chart goes by among the sizes'.
const SweepSet = "sweep"
