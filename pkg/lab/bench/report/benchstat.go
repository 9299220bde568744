package report

import (
	"bufio"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
)

// The benchstat text follows the Go benchmark format
// (golang.org/design/14313-benchmark-format): configuration lines, then one
// line per run, "BenchmarkScenario/<scenario>/<size>/<variant> 1" and a
// value and unit for every figure. Units carry the figure's name, so that
// benchstat keeps figures with the same unit apart.

// benchName is a run's benchmark name; sizes lose any character that the
// format gives a meaning (spaces, slashes).
func benchName(scenarioName, size, variant string) string {
	return fmt.Sprintf("BenchmarkScenario/%s/%s/%s", scenarioName, results.Slug(size), variant)
}

// countUnits are units a figure's name already says: a count of pods or
// requests needs no suffix.
var countUnits = map[string]bool{"": true, "pods": true, "requests": true, "goroutines": true, "sockets": true, "req/min": true}

// benchUnit turns a figure and its unit into one space-free unit:
// time_to_running_s, peak_rss_MiB, but extra_pods and requests_per_min.
func benchUnit(name, unit string) string {
	if countUnits[unit] {
		return name
	}
	return name + "_" + strings.ReplaceAll(unit, " ", "-")
}

// writeBenchstat writes every successful run in the order they ran; with
// a variant named, only that variant's runs, and names without it, so
// that "benchstat bench.legacy.txt bench.modern.txt" puts the two designs
// side by side with their differences. cpu, when known, names the
// processor.
func writeBenchstat(w io.Writer, runs []results.RunRecord, variant, cpu string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "goos: %s\ngoarch: %s\npkg: github.com/kube-rewind/kube-rewind/pkg/lab/bench\n", runtime.GOOS, runtime.GOARCH)
	if cpu != "" {
		fmt.Fprintf(bw, "cpu: %s\n", cpu)
	}
	for _, r := range runs {
		if r.Outcome == nil || (variant != "" && r.Variant.Name != variant) {
			continue
		}
		rs, _ := results.Of(r.Outcome)
		if len(rs) == 0 {
			continue
		}
		name := benchName(r.Scenario, r.Size.Label, r.Variant.Name)
		if variant != "" {
			name = strings.TrimSuffix(name, "/"+variant)
		}
		fmt.Fprintf(bw, "%s 1", name)
		for _, res := range rs {
			fmt.Fprintf(bw, " %s %s", strconv.FormatFloat(res.Value, 'g', 10, 64), benchUnit(res.Name, res.Unit))
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}
