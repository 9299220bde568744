package scenario

import (
	"context"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Step is one stage of a scenario.
type Step struct {
	// Title is a few words.
	Title string
	// Say tells the audience what happens now and what to look for.
	Say string
	// Run acts and waits until the step is done; it must stop when ctx ends.
	Run func(ctx context.Context, e *Env) error
	// Starts says the step only sets something going (a controller
	// created) and returns without waiting for its outcome, which the
	// next step shows: talk mode plays the two as one, with no pause
	// between them.
	Starts bool
}

// Scenario is one situation to replay.
type Scenario struct {
	Name  string
	Title string
	// Reproduces names the historical issue, with its number.
	Reproduces string
	// Explain says what the scenario shows, for the docs and reports.
	Explain string
	// Figure names the result that is the scenario's point (a Result's
	// Name): talk mode shows it big on each side, measured live, and its
	// deck sums each recording up by it.
	Figure string
	// Full lists the sizes a run measures; Quick those of a quick run
	// (none means Full's); Large the biggest, which -large adds to either
	// (see Sizes).
	Full, Quick, Large []Size
	// Talk is the size talk mode plays by default, for scenarios whose
	// quick size is too small to make the point on a projector; the zero
	// value means the quick size.
	Talk Size
	// Cluster is the cluster the scenario needs; Start fills in the
	// design, binaries and directory, and what the size asks for (see
	// Size.PodsFirst and Size.EtcdMembers).
	Cluster stack.Config
	// Intervals overrides how often the sampler reads each source; the
	// zero value means sampler.DefaultIntervals. Scenarios that measure an
	// idle manager's CPU sample it slowly, so the measuring does not show
	// up in the measurement.
	Intervals sampler.Intervals
	// Today says the scenario runs on today's stack too (the variants
	// stack-today and stack-today-unthrottled): its steps need no more of
	// a cluster than Cluster offers.
	Today bool
	// Script is what the scenario does at a size, the figures it reports
	// and the outcome each design must show.
	Script Script

	// Bench is how make bench runs the scenario unless told otherwise;
	// nil leaves it out of the default runs, on the default variants at
	// its standard sizes.
	Bench *Bench
	// Live is how talk mode's page measures Figure as the scenario plays;
	// the zero value has the page show the goroutine count instead.
	Live LiveFigure
	// Headline lists the scenario's figures in the headline table of the
	// benchmark's results page, in the order shown there.
	Headline []Headline
	// TalkLength is how long the scenario plays at talk size, from both
	// clusters up to the results, without the pauses before steps (which
	// are the speaker's) or the few seconds of starting the clusters. It
	// is set only where examples/talk holds no recording of the scenario,
	// whose own length serves otherwise: the length of one run recorded
	// at talk size (rcbench demo -auto -record) on a busy 2-core machine,
	// in which both designs showed what the scenario expects of them.
	TalkLength time.Duration
}

// Script is the part of a scenario that acts: each scenario has its own.
type Script interface {
	// Steps returns the steps for a size.
	Steps(sz Size) []Step
	// Results computes the headline figures once the steps are done.
	Results(e *Env) []Result
	// Expect checks the outcome variant v must show at this size: what
	// its design must, and on today's stack what kube-controller-manager
	// must; the tests, the demo's verdicts and the sweep's breaks call it.
	Expect(v Variant, sz Size, results map[string]float64) error
}

// Sizes returns the sizes to run: the quick ones or the full ones, and
// the largest too with large. A size on external etcd members is left out
// where no etcd binary is installed.
func (sc *Scenario) Sizes(quick, large bool) []Size {
	sizes := sc.Full
	if quick && len(sc.Quick) > 0 {
		sizes = sc.Quick
	}
	if large {
		sizes = append(sizes[:len(sizes):len(sizes)], sc.Large...)
	}
	var out []Size
	for _, sz := range sizes {
		if sz.EtcdMembers > 0 {
			if bin, _ := etcdtest.Binary(); bin == "" {
				continue
			}
		}
		out = append(out, sz)
	}
	return out
}
