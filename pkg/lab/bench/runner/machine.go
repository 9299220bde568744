package runner

import (
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// Machine describes the machine the benchmark runs on, its load averages
// now as LoadBefore.
func Machine() results.Machine {
	return results.Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH, LoadBefore: LoadAverage()}
}

// LoadAverage reads the 1, 5 and 15 minute load averages (zeros where
// /proc/loadavg cannot be read).
func LoadAverage() [3]float64 {
	var l [3]float64
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return l
	}
	fields := strings.Fields(string(data))
	for i := 0; i < 3 && i < len(fields); i++ {
		l[i], _ = strconv.ParseFloat(fields[i], 64)
	}
	return l
}

// cpuModel returns the processor's model name from /proc/cpuinfo.
func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
