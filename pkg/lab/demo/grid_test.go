package demo

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

func pods(states ...string) []sampler.PodState {
	out := make([]sampler.PodState, len(states))
	for i, s := range states {
		out[i] = sampler.PodState{ID: string(rune('a' + i)), State: s}
	}
	return out
}

func TestTheGridIsSentAsRunsOfOneState(t *testing.T) {
	for _, tc := range []struct {
		name string
		pods []sampler.PodState
		want string
	}{
		{"no pods", nil, ""},
		{"one pod", pods(sampler.StateRunning), "r1"},
		{"runs", pods(sampler.StateRunning, sampler.StateRunning, sampler.StateWaiting, sampler.StateUnscheduled, sampler.StateUnscheduled, sampler.StateTerminated), "r2w1u2x1"},
		{"an unknown state counts as waiting", pods("odd"), "w1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := encodeGrid(tc.pods)
			if got != tc.want {
				t.Fatalf("encodeGrid = %q, want %q", got, tc.want)
			}
			total := 0
			for _, r := range decodeGrid(got) {
				total += r.N
			}
			if total != len(tc.pods) {
				t.Errorf("decoding %q gives %d pods, want %d", got, total, len(tc.pods))
			}
		})
	}
}

func TestTenThousandPodsFitTheGridAndCostFewElements(t *testing.T) {
	states := make([]sampler.PodState, 10000)
	for i := range states {
		states[i].State = sampler.StateRunning
		if i >= 9000 {
			states[i].State = sampler.StateWaiting
		}
	}
	grid := encodeGrid(states)
	if len(grid) > 20 {
		t.Errorf("the grid of 10 000 pods in two runs takes %d bytes: %q", len(grid), grid)
	}
	cell, cols := gridLayout(10000, gridW, gridH)
	if cols*(gridH/cell) < 10000 {
		t.Errorf("layout %d px squares, %d a row: room for %d, not 10 000", cell, cols, cols*(gridH/cell))
	}
	svg := gridSVG("s0", grid, 10000)
	if n := strings.Count(svg, "<rect"); n > 300 {
		t.Errorf("the SVG of 10 000 pods has %d rects; runs should keep it small", n)
	}
}

func TestTheLayoutUsesTheLargestSquaresThatFit(t *testing.T) {
	for _, n := range []int{0, 1, 7, 20, 100, 999, 1000, 3000, 10000} {
		cell, cols := gridLayout(n, gridW, gridH)
		if room := cols * (gridH / cell); room < n {
			t.Errorf("n=%d: %d px squares leave room for %d", n, cell, room)
		}
		bigger := cell + 1
		if n > 0 && (gridW/bigger)*(gridH/bigger) >= n {
			t.Errorf("n=%d: %d px squares would also fit, chose %d", n, bigger, cell)
		}
	}
}

func TestRatesAreTheGrowthOverTheLastSeconds(t *testing.T) {
	for _, tc := range []struct {
		name   string
		series []sampler.Point
		want   float64
	}{
		{"empty", nil, 0},
		{"one point", []sampler.Point{{T: 1, V: 5}}, 0},
		{"steady", []sampler.Point{{T: 0, V: 0}, {T: 5, V: 10}, {T: 10, V: 20}}, 2},
		{"only the last window counts", []sampler.Point{{T: 0, V: 0}, {T: 10, V: 100}, {T: 15, V: 100}, {T: 20, V: 100}}, 0},
		{"a counter that restarts is not a negative rate", []sampler.Point{{T: 0, V: 10}, {T: 1, V: 0}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rate(tc.series, 5); got != tc.want {
				t.Errorf("rate = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTheTableNamesTheBetterDesignWhereLowerIsBetter(t *testing.T) {
	legacy := []scenario.Result{
		{Name: "peak_goroutines", Unit: "goroutines", Value: 3000, LowerIsBetter: true},
		{Name: "time_to_running", Unit: "s", Value: 9.5, LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: 20, LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: 20},
		{Name: "pod_creates", Unit: "requests", Value: 100, LowerIsBetter: true},
		{Name: "time_to_zero", Unit: "s", Value: -1, LowerIsBetter: true},
	}
	modern := []scenario.Result{
		{Name: "peak_goroutines", Unit: "goroutines", Value: 300, LowerIsBetter: true},
		{Name: "time_to_running", Unit: "s", Value: 49, LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: 0, LowerIsBetter: true},
		{Name: "final_active", Unit: "pods", Value: 21},
		{Name: "pod_creates", Unit: "requests", Value: 100, LowerIsBetter: true},
		{Name: "time_to_zero", Unit: "s", Value: 3, LowerIsBetter: true},
	}
	want := []Row{
		{Name: "peak goroutines", Unit: "goroutines", Legacy: "3\u202f000", Modern: "300", Better: "modern", Diff: "today 10× lower"},
		{Name: "time to running", Unit: "s", Legacy: "9.50", Modern: "49", Better: "legacy", Diff: "2014 5× lower"},
		{Name: "extra pods", Unit: "pods", Legacy: "20", Modern: "0", Better: "modern", Diff: "today: none"},
		{Name: "final active", Unit: "pods", Legacy: "20", Modern: "21"},
		{Name: "pod creates", Unit: "requests", Legacy: "100", Modern: "100", Diff: "same"},
		{Name: "time to zero", Unit: "s", Legacy: "–", Modern: "3"},
	}
	got := compare(legacy, modern)
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestARowOfAFeature2014LacksSaysSoInsteadOfMarkingTodayWorse(t *testing.T) {
	rows := []Row{
		{Name: "election requests per min", Legacy: "0", Modern: "27.9", Better: "legacy", Diff: "2014: none"},
		{Name: "lists per min", Legacy: "71.8", Modern: "0", Better: "modern", Diff: "today: none"},
	}
	today := append([]Row(nil), rows...)
	MarkMissing(today, Designs[1])
	if today[0].Missing != "" {
		t.Errorf("with today on the left, %+v", today[0])
	}
	MarkMissing(rows, Designs[0])
	if rows[0].Missing != noSuchThing || rows[0].Better != "" || rows[0].Diff != "(history: leader-election)" {
		t.Errorf("%+v: want the cell to say %q, no side better, the change cited", rows[0], noSuchThing)
	}
	if rows[1].Missing != "" || rows[1].Better != "modern" {
		t.Errorf("a row both designs count was changed: %+v", rows[1])
	}
}
