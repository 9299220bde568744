package runner

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// A run whose idle manager's ticks fell behind marks its design's break,
// so that the sweep runs none of its larger sizes.
func TestARunWhoseIdleManagersTicksFellBehindStopsTheSweepsLargerSizes(t *testing.T) {
	rec := results.RunRecord{Scenario: "idle", Variant: scenario.Legacy, Size: scenario.Size{Controllers: 10, Replicas: 10000, Period: 10 * time.Second},
		Outcome: &scenario.Outcome{Results: []scenario.Result{{Name: "apiserver_cpu_per_min", Value: 100}, {Name: "lists_per_min", Value: 17},
			{Name: "lists_during_idle", Value: 33}, {Name: "ticks_during_idle", Value: 3}}}}
	if why := brokeBy(rec, 2); !strings.Contains(why, "17.0 LISTs a minute") {
		t.Errorf("a run whose ticks fell behind does not stop the sweep's larger sizes: %q", why)
	}
	rec.Outcome.Results[1].Value = 62
	if why := brokeBy(rec, 2); why != "" {
		t.Errorf("a run that kept most of its ticks broke: %q", why)
	}
}

// blocking runs every scenario until its context ends.
type blocking struct{}

func (blocking) Run(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error) {
	<-ctx.Done()
	return nil, fmt.Errorf("%s/%s step 2 (Wait): %v", sc.Name, v.Name, ctx.Err())
}

func TestARunThatOutlivesItsLimitFailsAndTheSweepGoesOn(t *testing.T) {
	r := New(Options{BinDir: t.TempDir()}, io.Discard)
	r.Scenarios = blocking{}
	idle, err := scripts.Get("idle")
	if err != nil {
		t.Fatal(err)
	}
	it := Item{Scenario: idle, Size: scenario.Size{Label: "M=10,k=10", Controllers: 10, Replicas: 10, Period: 10 * time.Second, Window: 20 * time.Second, PodsFirst: true},
		Variants: []scenario.Variant{scenario.Legacy}, Runs: 1}
	rec := r.runOne(context.Background(), t.TempDir(), it, it.Variants[0], 0, 1, 1, 50*time.Millisecond)
	if !rec.TimedOut || rec.Outcome != nil || !strings.Contains(rec.Err, "not finished within its limit") {
		t.Errorf("a run past its limit: timed out %v, error %q", rec.TimedOut, rec.Err)
	}
}

// stalled runs every scenario until its context ends, with 100 pods
// made, 70 of them bound and 40 running by then, and returns what it
// sampled with the failure, as a scenario stopped at its limit does.
type stalled struct{}

func (stalled) Run(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error) {
	<-ctx.Done()
	start := time.Now()
	rec := sampler.NewRecorder(start)
	rec.Add(sampler.PodsActive, start, 100)
	rec.Add(sampler.PodsUnscheduled, start, 30)
	rec.Add(sampler.PodsRunning, start, 40)
	return &scenario.Outcome{Rec: rec, Marks: map[string]float64{}}, fmt.Errorf("%s/%s step 2 (Wait): %v", sc.Name, v.Name, ctx.Err())
}

// A run stopped at its limit says how far it came, in pods running and
// pods bound, and keeps its samples, so that its break can be judged and
// read.
func TestARunStoppedAtItsLimitSaysHowFarItCameAndKeepsItsSamples(t *testing.T) {
	r := New(Options{BinDir: t.TempDir()}, io.Discard)
	r.Scenarios = stalled{}
	up, err := scripts.Get("scale-up")
	if err != nil {
		t.Fatal(err)
	}
	it := Item{Scenario: up, Size: scenario.Size{Label: "N=100", Replicas: 100}, Variants: []scenario.Variant{scenario.Legacy}, Runs: 1}
	dir := t.TempDir()
	rec := r.runOne(context.Background(), dir, it, it.Variants[0], 0, 1, 1, 50*time.Millisecond)
	if !rec.TimedOut || rec.RunningAtLimit != 40 || rec.BoundAtLimit != 70 {
		t.Errorf("a run stopped at its limit: timed out %v, %v running and %v bound, want 40 and 70", rec.TimedOut, rec.RunningAtLimit, rec.BoundAtLimit)
	}
	if _, err := os.Stat(filepath.Join(dir, rec.Dir, "samples.csv")); err != nil {
		t.Errorf("a failed run left no samples: %v", err)
	}
}

func TestAFailedRunNamesTheResourceItsLogsSayRanOut(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "controller-manager.log"), []byte("E1 creating pod: dial tcp 127.0.0.1:4001: socket: too many open files\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "apiserver.log"), []byte("I0 fine\n"), 0o644)
	got := exhaustion(dir)
	if !strings.Contains(got, "file descriptors ran out") || strings.Contains(got, "ports") {
		t.Errorf("exhaustion = %q", got)
	}
	if got := exhaustion(t.TempDir()); got != "" {
		t.Errorf("no logs: %q", got)
	}
	line := "E1 hollownode.go:141] pod watch ended: watch error: resourceVersion 17064 is too old to watch from: etcd keeps only its last 1000 events\n"
	os.WriteFile(filepath.Join(dir, "hollow-node.log"), []byte(line+"I1 relisted\n"+line), 0o644)
	if got := exhaustion(dir); !strings.Contains(got, "fell out of etcd's window of 1000 events 2 times") {
		t.Errorf("a run whose hollow nodes relisted twice: %q", got)
	}
}
