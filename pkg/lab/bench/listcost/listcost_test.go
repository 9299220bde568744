package listcost

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

func TestListCostMeasuresEachBinaryAndPublishesItsPage(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two real apiservers")
	}
	bin := stacktest.BinDir(t)
	out, publish := t.TempDir(), t.TempDir()
	r := runner.New(runner.Options{Out: out, BinDir: bin, Publish: publish, Commit: "test"}, logWriter{t})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, rep, err := Run(ctx, r, Options{Pods: 300, Lists: 3, Profile: true,
		Binaries: []Binary{{Name: "first", Dir: bin}, {Name: "second", Dir: bin}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results, want one per binary", len(rep.Results))
	}
	for _, res := range rep.Results {
		if len(res.Seconds) != 3 || res.CPUSeconds <= 0 || res.AllocBytes <= 0 || res.Bytes < 300*100 {
			t.Errorf("%s: %+v, want 3 timed LISTs of 300 pods with the apiserver's CPU and allocations", res.Name, res)
		}
		for _, p := range res.Profiles {
			if info, err := os.Stat(filepath.Join(dir, p)); err != nil || info.Size() == 0 {
				t.Errorf("profile %s missing or empty: %v", p, err)
			}
		}
		if len(res.Profiles) != 3 {
			t.Errorf("%s: profiles %v, want the CPU profile and two allocation snapshots", res.Name, res.Profiles)
		}
	}
	page, err := os.ReadFile(filepath.Join(publish, report.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| first | 300 |", "| second | 300 |", "built from test"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the published page lacks %q:\n%s", want, page)
		}
	}
}

// logWriter sends a runner's progress to the test's log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}
