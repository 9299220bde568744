package live

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/demo"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/stacktest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/testutil"
)

// tinyOptions shrink a demo for make test: scale-up to 20 pods with a 2 s
// sync period, on two clusters, unattended.
func tinyOptions(t *testing.T, out *testutil.Buffer) Options {
	return Options{
		Scenario: "scale-up",
		Replicas: 20,
		Period:   2 * time.Second,
		Auto:     true,
		Addr:     "127.0.0.1:0",
		BinDir:   stacktest.BinDir(t),
		Dir:      t.TempDir(),
		Out:      out,
	}
}

func TestADemoPlaysAScenarioOnBothDesignsUnattended(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two clusters")
	}
	out := &testutil.Buffer{}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := tinyOptions(t, out)
	opts.Record = filepath.Join(t.TempDir(), "scale-up.html")
	rep, err := Run(ctx, opts)
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, out)
	}
	text := out.String()
	t.Logf("narration:\n%s", text)
	for _, want := range []string{"Live page: http://127.0.0.1:", "Step 1 of 2", "Step 2 of 2", "Results, side by side", "peak goroutines"} {
		if !strings.Contains(text, want) {
			t.Errorf("the narration lacks %q", want)
		}
	}
	if !strings.HasPrefix(text, "Live page: ") {
		t.Errorf("the page's address is not the first thing printed: %q", firstLine(text))
	}
	if len(rep.Rows) == 0 || len(rep.Legacy) != len(rep.Modern) {
		t.Fatalf("report rows %d, results %d legacy and %d modern", len(rep.Rows), len(rep.Legacy), len(rep.Modern))
	}
	for _, r := range rep.Rows {
		if r.Legacy == "" || r.Modern == "" || r.Modern == "–" {
			t.Errorf("row %+v lacks a design's figure", r)
		}
	}
	if len(rep.StepTimes) != 2 {
		t.Errorf("%d step times, want 2", len(rep.StepTimes))
	}
	// Counters come once the managers have something to count: never
	// "0/0 running" after a step that only created the controller.
	if m := regexp.MustCompile(`(?m)^ .* 0/0 +running.*$`).FindString(text); m != "" {
		t.Errorf("the narration counts nothing yet: %q", m)
	}
	assertNoChildren(t)

	// The recording, a page, holds every step and ends on the results.
	rec, err := demo.ReadRecording(opts.Record)
	if err != nil {
		t.Fatalf("the recording: %v", err)
	}
	seen := map[int]bool{}
	for _, f := range rec.Frames {
		if f.Phase == demo.PhaseRunning {
			seen[f.Step] = true
		}
	}
	last := rec.Frames[len(rec.Frames)-1]
	if !seen[1] || !seen[2] || last.Phase != demo.PhaseDone || len(rec.Results) != len(rep.Rows) || last.Sides[0].Running != opts.Replicas {
		t.Errorf("the recording has steps %v running, ends in phase %q with %d running and %d results", seen, last.Phase, last.Sides[0].Running, len(rec.Results))
	}
	// Creating the controller only sets it going: the demo goes straight
	// on to waiting for the pods, without a pause in between, however
	// long a loaded machine took to create it.
	if got := fmt.Sprint(demo.Pauses(rec.Frames)); got != "[1]" {
		t.Errorf("the recording pauses before steps %s, want [1]: step 1 folded into step 2", got)
	}
	// The tile of the scenario's figure ends where the table does.
	for i, s := range last.Sides {
		if got, want := demo.FormatFigure(s.Fig), demo.FigureRow(rec.Talk.Figure, rep.Rows, i); got != want {
			t.Errorf("side %d's %s tile ends on %s, the table says %s", i, rec.Talk.Figure.Label, got, want)
		}
	}
}

func TestADesignThatCannotStartLeavesNothingRunning(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a cluster")
	}
	// A binary directory without today's controller-manager: the 2014
	// cluster comes up, the modern one cannot, and the demo must stop both.
	full := stacktest.BinDir(t)
	bin := t.TempDir()
	entries, err := os.ReadDir(full)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == stack.ManagerBinary("modern") {
			continue
		}
		if err := os.Symlink(filepath.Join(full, e.Name()), filepath.Join(bin, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	out := &testutil.Buffer{}
	opts := tinyOptions(t, out)
	opts.BinDir = bin
	_, err = Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "modern") {
		t.Fatalf("Run without the modern binary = %v, want an error naming the modern cluster", err)
	}
	assertNoChildren(t)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// assertNoChildren fails if this test process still has a child: every
// component a demo starts is a direct child of it.
func assertNoChildren(t *testing.T) {
	t.Helper()
	if kids := testutil.Children(os.Getpid()); len(kids) > 0 {
		t.Errorf("processes left behind: %v", kids)
	}
}
