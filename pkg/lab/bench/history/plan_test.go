package history

import (
	"strings"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/benchtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// TestUpstreamStandsAtTodaysEndOfTheTimelineWhenBuilt checks that the
// timeline starts with upstream's own manager when its binary is there,
// and otherwise says how to build it.
func TestUpstreamStandsAtTodaysEndOfTheTimelineWhenBuilt(t *testing.T) {
	// The original v0.4 binaries are there too, so that no note is about them.
	v04 := benchtest.BinDir(t, original.Binaries...)
	hp, err := BuildPlan(runner.Options{Quick: true, OriginalDir: v04, BinDir: benchtest.BinDir(t, "apiserver", "hollow-node", "controller-manager", "controller-manager-modern", "controller-manager-upstream")})
	if err != nil {
		t.Fatal(err)
	}
	if hp.Timeline[0].Variant != scenario.Upstream.Name || hp.Timeline[1].Variant != scenario.Modern.Name || len(hp.Notes) != 0 {
		t.Errorf("timeline starts %+v (notes %q), want upstream, then today", hp.Timeline[:2], hp.Notes)
	}
	last := hp.Items[len(hp.Items)-1]
	if last.Variants[0].Name != scenario.Upstream.Name {
		t.Errorf("the timeline's item runs %s first, want upstream", last.Variants[0].Name)
	}
	hp, err = BuildPlan(runner.Options{Quick: true, OriginalDir: v04, BinDir: benchtest.BothDesigns(t)})
	if err != nil {
		t.Fatal(err)
	}
	if hp.Timeline[0].Variant != scenario.Modern.Name || len(hp.Notes) != 1 || !strings.Contains(hp.Notes[0], "make upstream") {
		t.Errorf("without its binary: timeline starts %+v, notes %q; want today, and how to build upstream", hp.Timeline[0], hp.Notes)
	}
}

// TestTheTimelineEndsWithTheOriginalManagerOnlyWithItsBinaries builds a
// history plan with and without make original's binaries.
func TestTheTimelineEndsWithTheOriginalManagerOnlyWithItsBinaries(t *testing.T) {
	for _, tc := range benchtest.OriginalCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			hp, err := BuildPlan(runner.Options{BinDir: benchtest.BothDesigns(t), OriginalDir: tc.Dir, Quick: true})
			if err != nil {
				t.Fatal(err)
			}
			want := map[bool]string{true: "legacy", false: "legacy-original"}[len(tc.Want) < len(benchtest.OriginalVariants)]
			if last := hp.Timeline[len(hp.Timeline)-1].Variant; last != want {
				t.Errorf("the timeline ends with %s, want %s", last, want)
			}
		})
	}
}

// TestRunsOfEachCountsTheItemsRunsWithoutTheRunsFlag checks that a plan
// without -runs says how many runs its items have, not the zero of the
// absent flag: a page once said "0 run(s) of each" above medians of two.
func TestRunsOfEachCountsTheItemsRunsWithoutTheRunsFlag(t *testing.T) {
	for _, tc := range []struct {
		opts runner.Options
		want int
	}{
		{runner.Options{}, 2},
		{runner.Options{Quick: true}, 1},
		{runner.Options{Runs: 3}, 3},
	} {
		hp, err := BuildPlan(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if hp.RunsEach != tc.want {
			t.Errorf("runs=%d quick=%v: %d run(s) of each, want %d", tc.opts.Runs, tc.opts.Quick, hp.RunsEach, tc.want)
		}
	}
}
