package bench

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

func TestAQuickLegacyScaleUpOnARealClusterWritesTheReport(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a real cluster")
	}
	out := t.TempDir()
	r := runner.New(runner.Options{Scenarios: []string{"scale-up"}, Variants: []string{"legacy"}, Runs: 1, Quick: true,
		Out: out, BinDir: stacktest.BinDir(t)}, io.Discard)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, sum, err := Run(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failures) > 0 {
		t.Fatalf("the run failed: %+v", sum.Failures)
	}
	for _, name := range []string{"report.md", "report.html", "results.json", "bench.txt", "bench.legacy.txt",
		"charts/scale-up_N=100_pods.svg", "runs/scale-up_N=100_legacy_1/samples.csv"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err != nil || info.Size() == 0 {
			t.Errorf("%s missing or empty: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "runs/scale-up_N=100_legacy_1/etcd")); !os.IsNotExist(err) {
		t.Errorf("the run's etcd data was kept: %v", err)
	}
	sc, _ := sum.Scenario("scale-up")
	legacy, _ := sc.Sizes[0].Variant("legacy")
	if f, ok := legacy.Figure("peak_goroutines"); !ok || f.Median < 100 {
		t.Errorf("legacy's goroutine peak for 100 pods is %v, want at least one per pod", f.Median)
	}
}
