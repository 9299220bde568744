package history

import (
	"fmt"
	"strings"
	"time"

	catalogue "github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// historySize returns the size a change's scenario runs at in the history
// run, and manager flags both its variants take. The sizes are smaller
// than the benchmark's, or their windows shorter, so that a dozen changes
// fit in the time budget; each still shows its effect where the change has
// one.
func historySize(c catalogue.Change, sc *scenario.Scenario, quick bool) (scenario.Size, []string) {
	sz := sc.Sizes(true, false)[0]
	window := func(q, d time.Duration) {
		sz.Window = d
		if quick {
			sz.Window = q
		}
	}
	switch sc.Name {
	case "scale-up":
		if c.Name == "burst-cap" {
			// The cap shows above 500 pods. At 20 creates a second that is
			// a minute a run, too long for -quick, which scales the cap
			// down with N instead.
			if quick {
				sz.Label = "N=100,burst_replicas=50"
				return sz, []string{"-burst_replicas=50"}
			}
			sz.Replicas, sz.Label = 1000, "N=1000"
			return sz, nil
		}
		if !quick {
			sz.Replicas, sz.Label = 200, "N=200"
		}
	case "restart":
		// The restarted manager first waits out the killed one's 15 s
		// lease; a shorter lease for both runs leaves what is measured,
		// the pods created after the restart, alone. The scenario's slow
		// pod LIST makes a sync on an empty cache certain without the
		// change, so 100 pods show it as well as 1 000.
		sz.Replicas, sz.Label = 100, "N=100"
		return sz, []string{"-leader_elect_lease_duration=3s", "-leader_elect_renew_deadline=2s", "-leader_elect_retry_period=500ms"}
	case "two-managers":
		// Both managers create the deficit within a second of the
		// controller's creation; the window only lets the fight go on.
		window(5*time.Second, 8*time.Second)
	case "overlap":
		window(8*time.Second, 10*time.Second)
	case "api-errors":
		window(6*time.Second, 8*time.Second)
		if quick {
			sz.Replicas, sz.Label = 20, "N=20"
		}
	}
	return sz, nil
}

// withoutVariant is today's manager with the named changes switched off.
func withoutVariant(name string, args []string, off ...string) scenario.Variant {
	set := map[string]bool{}
	for _, n := range off {
		set[n] = true
	}
	return scenario.Variant{
		Name:        name,
		Design:      "modern",
		ManagerArgs: append(append([]string{}, args...), "-without="+catalogue.FormatWithout(set)),
	}
}

// timelineSteps returns the timeline: today, then the switchable changes
// removed newest first (by year under -quick, to save runs), then the
// 2014 manager. BuildPlan puts upstream's manager before today, and
// the original v0.4 manager after our 2014 one, when their binaries are
// there.
func timelineSteps(quick bool) []results.TimelineStep {
	steps := []results.TimelineStep{{Variant: scenario.Modern.Name, Label: "today"}}
	names := catalogue.SwitchNames()
	var off []string
	for i := len(names) - 1; i >= 0; i-- {
		c, _ := catalogue.Get(names[i])
		off = append(off, c.Name)
		year := c.Date[:4]
		if quick && i > 0 {
			prev, _ := catalogue.Get(names[i-1])
			if prev.Date[:4] == year {
				continue
			}
		}
		st := results.TimelineStep{Variant: "before-" + c.Name, Label: "−" + c.Name, Off: append([]string{}, off...)}
		if quick {
			st.Variant, st.Label = "before-"+year, "before "+year
		}
		steps = append(steps, st)
	}
	return append(steps, results.TimelineStep{Variant: scenario.Legacy.Name, Label: "2014 (v0.4)"})
}

// Plan is a plan of the history run and what it will compare.
type Plan struct {
	*runner.Plan
	// Changes are measured, in date order; Unmeasured are the others.
	Changes    []Case
	Unmeasured []catalogue.Change
	Timeline   []results.TimelineStep
	// TimelineSize is the size of the timeline's scenario.
	TimelineSize string
}

// Case is one change and where its two figures come from.
type Case struct {
	Change catalogue.Change
	Size   string
	// With and Without are the variants compared.
	With, Without string
	// Args are the flags both variants take (quick stand-ins).
	Args []string
}

// BuildPlan returns the runs of a history run: for each measured
// change an item of its scenario with and without it (items of one
// scenario and size share today's runs), and the timeline's steps.
func BuildPlan(opts runner.Options) (*Plan, error) {
	runs := opts.Runs
	if runs < 0 {
		return nil, fmt.Errorf("-runs must be at least 1, not %d", runs)
	}
	hp := &Plan{Plan: &runner.Plan{}}
	hp.RunsEach = runs
	index := map[string]int{}
	add := func(sc *scenario.Scenario, sz scenario.Size, n int, vs ...scenario.Variant) {
		key := sc.Name + " " + sz.Label
		i, ok := index[key]
		if !ok {
			hp.Items = append(hp.Items, runner.Item{Scenario: sc, Size: sz, Runs: n})
			i = len(hp.Items) - 1
			index[key] = i
		}
		for _, v := range vs {
			dup := false
			for _, have := range hp.Items[i].Variants {
				dup = dup || have.Name == v.Name
			}
			if !dup {
				hp.Items[i].Variants = append(hp.Items[i].Variants, v)
			}
		}
	}
	pick := func(quickRuns, defaultRuns int) int {
		switch {
		case runs > 0:
			return runs
		case opts.Quick:
			return quickRuns
		}
		return defaultRuns
	}
	for _, c := range catalogue.Changes {
		if c.Scenario == "" || !c.Switchable() {
			hp.Unmeasured = append(hp.Unmeasured, c)
			continue
		}
		sc, err := scripts.Get(c.Scenario)
		if err != nil {
			return nil, fmt.Errorf("history entry %s: %v", c.Name, err)
		}
		sz, args := historySize(c, sc, opts.Quick)
		n := pick(1, 2)
		if sz.Replicas >= 1000 {
			n = pick(1, 1)
		}
		with := scenario.Modern
		with.ManagerArgs = append(append([]string{}, with.ManagerArgs...), args...)
		add(sc, sz, n, with, withoutVariant("without-"+c.Name, args, c.Name))
		hp.Changes = append(hp.Changes, Case{Change: c, Size: sz.Label, With: with.Name, Without: "without-" + c.Name, Args: args})
	}

	sc, err := scripts.Get(results.TimelineScenario)
	if err != nil {
		return nil, err
	}
	sz, _ := historySize(catalogue.Change{}, sc, opts.Quick)
	hp.TimelineSize = sz.Label
	hp.Timeline = timelineSteps(opts.Quick)
	// Today's real replication manager stands at today's end, beside our
	// port of it, when its binary has been built.
	missing := runner.NewMissingBinaries(opts)
	if !missing.Skip(scenario.Upstream) {
		hp.Timeline = append([]results.TimelineStep{{Variant: scenario.Upstream.Name, Label: "upstream today"}}, hp.Timeline...)
	}
	// The original v0.4 manager ends it, beside our port of it, when make
	// original has built it.
	if !missing.Skip(scenario.LegacyOriginal) {
		hp.Timeline = append(hp.Timeline, results.TimelineStep{Variant: scenario.LegacyOriginal.Name, Label: "2014 (the v0.4 binary)"})
	}
	hp.Notes = append(hp.Notes, missing.Notes()...)
	// Today's runs come from the changes measured at this size, when
	// there are some; the timeline's own item holds the other steps, once
	// each.
	todayShared := false
	if i, ok := index[sc.Name+" "+sz.Label]; ok {
		for _, v := range hp.Items[i].Variants {
			todayShared = todayShared || v.Name == scenario.Modern.Name
		}
	}
	var vs []scenario.Variant
	for _, st := range hp.Timeline {
		switch st.Variant {
		case scenario.Modern.Name:
			if !todayShared {
				vs = append(vs, scenario.Modern)
			}
		case scenario.Legacy.Name:
			vs = append(vs, scenario.Legacy)
		case scenario.Upstream.Name:
			vs = append(vs, scenario.Upstream)
		case scenario.LegacyOriginal.Name:
			vs = append(vs, scenario.LegacyOriginal)
		default:
			vs = append(vs, withoutVariant(st.Variant, nil, st.Off...))
		}
	}
	hp.Items = append(hp.Items, runner.Item{Scenario: sc, Size: sz, Variants: vs, Runs: pick(1, 1)})
	// Without -runs each item picks its own number of runs; the page's
	// "run(s) of each" is then the most any item has, and the choices
	// below name each item's.
	for _, it := range hp.Items {
		hp.RunsEach = max(hp.RunsEach, it.Runs)
	}
	for _, it := range hp.Items {
		var names []string
		for _, v := range it.Variants {
			names = append(names, v.Name)
		}
		hp.Choices = append(hp.Choices, fmt.Sprintf("%s %s: %d run(s) of %s", it.Scenario.Name, it.Size.Label, it.Runs, strings.Join(names, ", ")))
	}
	return hp, nil
}
