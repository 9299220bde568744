package report

import (
	"testing"
)

func TestBenchNamesAndUnitsHaveNoSpacesOrStraySlashes(t *testing.T) {
	for _, tc := range []struct{ size, want string }{
		{"N=1000", "BenchmarkScenario/churn/N=1000/legacy"},
		{"N=100,r=2/s", "BenchmarkScenario/churn/N=100,r=2_s/legacy"},
		{"3 + 5", "BenchmarkScenario/churn/3_+_5/legacy"},
	} {
		if got := benchName("churn", tc.size, "legacy"); got != tc.want {
			t.Errorf("benchName(%q) = %q, want %q", tc.size, got, tc.want)
		}
	}
	for _, tc := range []struct{ name, unit, want string }{
		{"time_to_running", "s", "time_to_running_s"},
		{"cpu_per_min", "CPU s/min", "cpu_per_min_CPU-s/min"},
		{"extra_pods", "pods", "extra_pods"},
		{"requests_per_min", "req/min", "requests_per_min"},
	} {
		if got := benchUnit(tc.name, tc.unit); got != tc.want {
			t.Errorf("benchUnit(%q, %q) = %q, want %q", tc.name, tc.unit, got, tc.want)
		}
	}
}
