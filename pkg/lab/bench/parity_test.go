package bench

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
)

// TestAParityRunGivesBothStacksTheSameWork starts both sides of the fair
// fight at 1 500 pods' size and reads, from the running processes, what
// each got: the nodes the cluster holds, the simulated kubelets' status
// writers and start delay (the hollow nodes' flags; KWOK's
// KwokConfiguration and pod-ready stage, from the files its command line
// names), kube-apiserver's limits from its command line, and the meter.
// The two sides must agree. The pair without parity, legacy beside
// stack-today-unthrottled read through kube-apiserver, is the planted
// fault: the same reading must find them different. Like every test of
// this package it runs in one build: the build changes no code they
// start, so make test's modern build leaves the package out
// (.ci/modern-packages). v0.4's side (stack-original-parity) is read
// against the same values in pkg/lab/original's tests, which build its
// binaries.
func TestAParityRunGivesBothStacksTheSameWork(t *testing.T) {
	todayBin := todayBinOrSkip(t, "starts both stacks twice")
	sc, err := scripts.Get("scale-up")
	if err != nil {
		t.Fatal(err)
	}
	sz := scenario.Size{Label: "N=1500", Replicas: 1500, Period: 10 * time.Second}
	read := func(v scenario.Variant) scenario.ParityGot {
		t.Helper()
		e, err := scenario.Start(sc, v, sz, scenario.Options{BinDir: stacktest.BinDir(t), TodayDir: todayBin, Dir: t.TempDir()})
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		defer e.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		got, err := e.Parity(ctx)
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		t.Logf("%s got %+v", v.Name, got)
		return got
	}
	old, new := read(scenario.LegacyParity), read(scenario.StackTodayParity)
	if d := old.Differs(new); len(d) > 0 {
		t.Errorf("a parity run gives the two stacks different work: %s", strings.Join(d, "; "))
	}
	want := scenario.ParityGot{Nodes: 15, StatusWriters: scenario.ParityStatusWriters, StartDelay: scenario.ParityStartDelay, Limits: "none", Reader: stack.LabWAL}
	if d := new.Differs(want); len(d) > 0 {
		t.Errorf("today's side at parity is not what parity.go says: %s", strings.Join(d, "; "))
	}

	// Both sides read the member's log by default now; the unfair pair
	// reads today's side as the laboratory read it before, through a
	// watch of kube-apiserver.
	watched := scenario.StackTodayUnthrottled
	watched.LabReader = stack.LabAPIWatch
	unfair := read(scenario.Legacy).Differs(read(watched))
	for _, what := range []string{"nodes", "status writers", "start delay", "apiserver limits", "meter", "reader"} {
		if !strings.Contains(strings.Join(unfair, "; "), what+":") {
			t.Errorf("the pair without parity differs in %q, the reading finds no difference in %s", unfair, what)
		}
	}
}
