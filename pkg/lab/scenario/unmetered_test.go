package scenario

import (
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// TestAVariantOnTodaysStackRunsWithoutTheMeterAsAControl: any variant on
// today's stack has an "-unmetered" control, and no other variant has one.
func TestAVariantOnTodaysStackRunsWithoutTheMeterAsAControl(t *testing.T) {
	v, err := VariantByName("stack-today-unthrottled-unmetered")
	if err != nil {
		t.Fatal(err)
	}
	if !v.Unmetered || !v.Runs(TodayStack) || v.Name != "stack-today-unthrottled-unmetered" || v.CountsRequests() {
		t.Errorf("stack-today-unthrottled-unmetered is %+v; want today's stack without its meter, counting no requests", v)
	}
	if base, _ := VariantByName("stack-today-unthrottled"); !base.CountsRequests() || base.Unmetered {
		t.Errorf("stack-today-unthrottled is %+v; want its meter counting requests", base)
	}
	for _, name := range []string{"legacy-unmetered", "modern-unmetered", "cluster-unmetered", "stack-today-unmetered-unmetered"} {
		if _, err := VariantByName(name); err == nil {
			t.Errorf("%s is a variant; want an error: only a variant on today's stack has the meter to run without, once", name)
		}
	}
}

// TestARunWithoutTheMeterLeavesOutWhatTheMeterCounts: the managers'
// request counts, rates and bytes are left out, not reported as zero;
// their CPU, goroutines and memory, the pods and the times stay.
func TestARunWithoutTheMeterLeavesOutWhatTheMeterCounts(t *testing.T) {
	rs := []Result{
		{Name: "time_to_running", Unit: "s"},
		{Name: "extra_pods", Unit: "pods"},
		{Name: "pod_creates", Process: sampler.ProcessManager, Unit: "requests"},
		{Name: "manager_bytes", Process: sampler.ProcessManager, Unit: "MB"},
		{Name: "requests_per_min", Process: sampler.ProcessManager, Unit: "req/min"},
		{Name: "bytes_per_min", Process: sampler.ProcessManager, Unit: "kB/min"},
		{Name: "peak_goroutines", Process: sampler.ProcessManager, Unit: "goroutines"},
		{Name: "cpu_per_min", Process: sampler.ProcessManager, Unit: "CPU s/min"},
		{Name: "apiserver_cpu", Process: sampler.ProcessAPIServer, Unit: "CPU s"},
	}
	v, _ := VariantByName("stack-today-unmetered")
	got := ResultMap((&Env{Variant: v}).forUnmetered(rs))
	for _, gone := range []string{"pod_creates", "manager_bytes", "requests_per_min", "bytes_per_min"} {
		if _, ok := got[gone]; ok {
			t.Errorf("%s is reported without the meter that counts it", gone)
		}
	}
	for _, kept := range []string{"time_to_running", "extra_pods", "peak_goroutines", "cpu_per_min", "apiserver_cpu"} {
		if _, ok := got[kept]; !ok {
			t.Errorf("%s is left out without the meter, which does not count it", kept)
		}
	}
	if n := len((&Env{Variant: StackTodayUnthrottled}).forUnmetered(rs)); n != len(rs) {
		t.Errorf("with its meter a run keeps %d of its %d figures; want all", n, len(rs))
	}
}
