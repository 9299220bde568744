package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
)

// checkBenchFormat checks text against the Go benchmark format
// (golang.org/design/14313-benchmark-format) and returns the benchmark
// lines' names and their units.
func checkBenchFormat(t *testing.T, text string) (names []string, units map[string]bool) {
	t.Helper()
	units = map[string]bool{}
	for i, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if !strings.HasPrefix(line, "Benchmark") {
			key, _, ok := strings.Cut(line, ": ")
			if !ok || key == "" || !unicode.IsLower(rune(key[0])) || strings.ContainsAny(key, " \t") {
				t.Errorf("line %d is neither a benchmark nor a configuration line: %q", i+1, line)
			}
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 4 || len(fields)%2 != 0 {
			t.Errorf("line %d: want a name, an iteration count and value/unit pairs: %q", i+1, line)
			continue
		}
		if fields[1] != "1" {
			t.Errorf("line %d: %s iterations, want 1 (one run per line)", i+1, fields[1])
		}
		names = append(names, fields[0])
		for j := 2; j < len(fields); j += 2 {
			if _, err := strconv.ParseFloat(fields[j], 64); err != nil {
				t.Errorf("line %d: value %q does not parse: %v", i+1, fields[j], err)
			}
			units[fields[j+1]] = true
		}
	}
	return names, units
}

func TestBenchstatTextHasOneLinePerRunInGoBenchmarkFormat(t *testing.T) {
	f := &benchtest.Runs{}
	r, _ := benchtest.Runner(t, runner.Options{Scenarios: []string{"scale-up", "idle"}, Variants: []string{"legacy", "modern"}, Runs: 2}, f)
	dir, _, err := Run(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "bench.txt"))
	if err != nil {
		t.Fatal(err)
	}
	names, units := checkBenchFormat(t, string(data))
	if len(names) != len(f.Calls) {
		t.Errorf("%d benchmark lines for %d runs", len(names), len(f.Calls))
	}
	for _, want := range []string{"BenchmarkScenario/scale-up/N=1000/legacy", "BenchmarkScenario/idle/M=10,k=10/modern"} {
		if !strings.Contains(string(data), want+" 1 ") {
			t.Errorf("bench.txt lacks %s", want)
		}
	}
	for _, want := range []string{"time_to_running_s", "peak_goroutines", "requests_per_min", "time_to_create_s"} {
		if !units[want] {
			t.Errorf("no unit %s among %v", want, units)
		}
	}
	legacy, err := os.ReadFile(filepath.Join(dir, "bench.legacy.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lnames, _ := checkBenchFormat(t, string(legacy))
	if len(lnames) != len(names)/2 || !bytes.Contains(legacy, []byte("BenchmarkScenario/scale-up/N=1000 1 ")) {
		t.Errorf("bench.legacy.txt should hold the legacy runs without the variant in their names:\n%s", legacy)
	}
}
