package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

func TestParityGivesOneNodeAHundredPodsAndNeverFewerThanTheScenarios(t *testing.T) {
	sc := &Scenario{Cluster: stack.Config{Nodes: 10}}
	for pods, want := range map[int]int{100: 10, 1000: 10, 1500: 15, 10000: 100, 100000: 1000} {
		if got := ParityNodes(sc, Size{Replicas: pods}); got != want {
			t.Errorf("%d pods: %d nodes, want %d", pods, got, want)
		}
	}
	if got := ParityNodes(sc, Size{Replicas: 300, Controllers: 10}); got != 30 {
		t.Errorf("10 controllers of 300: %d nodes, want 30", got)
	}
}

func TestTheApiserversLimitsAreNoneOnlyWhenAllThreeAreOff(t *testing.T) {
	if got := apiserverLimits(append([]string{"kube-apiserver", "--etcd-servers=x"}, parityAPIServerArgs...)); got != "none" {
		t.Errorf("with parity's flags: %q, want none", got)
	}
	got := apiserverLimits([]string{"kube-apiserver", "--enable-priority-and-fairness=false", "--max-requests-inflight=0"})
	if !strings.Contains(got, "--max-mutating-requests-inflight its default") || strings.Contains(got, "priority") {
		t.Errorf("with the mutating limit left on: %q", got)
	}
}

// TestKWOKsPlayIsReadFromTheFilesItWasGiven: the writers a
// KwokConfiguration sets (4 where none does) and the pod-ready stage's
// delay, read as KWOK reads them, from every --config.
func TestKWOKsPlayIsReadFromTheFilesItWasGiven(t *testing.T) {
	dir := t.TempDir()
	stages := filepath.Join(dir, "stages.yaml")
	os.WriteFile(stages, []byte("kind: Stage\nmetadata:\n  name: node-initialize\n---\nkind: Stage\nmetadata:\n  name: pod-ready\nspec:\n  delay:\n    durationMilliseconds: 250\n"), 0o644)
	writers, delay, err := kwokPlay([]string{"kwok", "--config=" + stages})
	if err != nil || writers != 4 || delay != 250*time.Millisecond {
		t.Errorf("stages alone: %d writers, %s, %v; want KWOK's default 4 and 250ms", writers, delay, err)
	}
	conf := filepath.Join(dir, "conf.yaml")
	os.WriteFile(conf, []byte("apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokConfiguration\noptions:\n  podPlayStageParallelism: 32\n"), 0o644)
	if writers, _, err := kwokPlay([]string{"kwok", "--config", stages, "--config=" + conf}); err != nil || writers != 32 {
		t.Errorf("with a KwokConfiguration: %d writers, %v; want 32", writers, err)
	}
}

func TestDiffersNamesEveryValueTheSidesDoNotShare(t *testing.T) {
	a := ParityGot{Nodes: 15, StatusWriters: 32, Limits: "none", Reader: "wal"}
	if d := a.Differs(a); len(d) != 0 {
		t.Errorf("the same work differs: %q", d)
	}
	b := ParityGot{Nodes: 10, StatusWriters: 4, StartDelay: 200 * time.Millisecond, Limits: "on: x", Meter: true, Reader: "a watch"}
	if d := a.Differs(b); len(d) != 6 {
		t.Errorf("differs in %q, want nodes, writers, delay, limits, meter and reader", d)
	}
}

func TestEveryParityVariantIsOneOfAFairFight(t *testing.T) {
	for _, v := range []Variant{LegacyParity, StackOriginalParity, StackTodayParity} {
		if !v.Parity || v.WholeStack == "" {
			t.Errorf("%s: parity %v, side %q", v.Name, v.Parity, v.WholeStack)
		}
	}
	if !StackTodayParity.Unmetered || StackTodayParity.Runs(TodayStack) == false {
		t.Errorf("stack-today-parity runs today's stack without its meter: %+v", StackTodayParity)
	}
}
