package runner

import (
	"runtime"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/prometheus/procfs"
)

// Machine describes the machine the benchmark runs on, its load averages
// now as LoadBefore.
func Machine() results.Machine {
	return results.Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, LoadBefore: LoadAverage()}
}

// LoadAverage reads the 1, 5 and 15 minute load averages (zeros where
// /proc/loadavg cannot be read).
func LoadAverage() [3]float64 {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return [3]float64{}
	}
	l, err := fs.LoadAvg()
	if err != nil {
		return [3]float64{}
	}
	return [3]float64{l.Load1, l.Load5, l.Load15}
}

// cpuModel returns the processor's model name from /proc/cpuinfo, or ""
// where it says none.
func cpuModel() string {
	fs, err := procfs.NewDefaultFS()
	if err != nil {
		return ""
	}
	cpus, err := fs.CPUInfo()
	if err != nil || len(cpus) == 0 {
		return ""
	}
	return cpus[0].ModelName
}
