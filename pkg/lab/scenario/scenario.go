package scenario

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/etcd/etcdtest"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Variant is one way of running the controller-manager.
type Variant struct {
	// Name labels results: legacy, modern, modern-unthrottled, upstream.
	Name string
	// Design is the design the manager follows, legacy or modern: what a
	// scenario may expect of it (pods owned by selector or by
	// ControllerRef, a leader election), and the binary it runs unless
	// Manager names another.
	Design string
	// Manager, when set, is the controller-manager binary to run instead
	// of the design's (stack.ManagerBinary).
	Manager string
	// Build says how to build Manager, for the note of a run that finds
	// it missing.
	Build string
	// Checks names the variant of ours this one is the original of: the
	// benchmark sets the two side by side (upstream checks modern).
	Checks string
	// ManagerArgs are extra controller-manager flags.
	ManagerArgs []string
	// Original, when set, runs original v0.4 binaries instead of ours
	// (stack.OriginalManager or stack.OriginalStack), from the directory
	// of make original; Design is then the design they must show, legacy.
	Original string
}

// The variants the benchmark compares. The modern design runs once with
// kube-controller-manager's client limits (20 QPS, burst 30) and once
// without, so that the design and the throttle can be told apart; today's
// upstream replication manager runs both ways too, beside each.
var (
	Legacy              = Variant{Name: "legacy", Design: "legacy"}
	Modern              = Variant{Name: "modern", Design: "modern"}
	ModernUnthrottled   = Variant{Name: "modern-unthrottled", Design: "modern", ManagerArgs: []string{"-kube_api_qps=0"}}
	Upstream            = Variant{Name: "upstream", Design: "modern", Manager: "controller-manager-upstream", Build: "make upstream", Checks: Modern.Name}
	UpstreamUnthrottled = Variant{Name: "upstream-unthrottled", Design: "modern", Manager: "controller-manager-upstream", Build: "make upstream", Checks: ModernUnthrottled.Name, ManagerArgs: []string{"-kube_api_qps=0"}}
)

// The original v0.4 binaries of make original, beside our port of 2014:
// the original controller-manager on our apiserver, and the original
// apiserver and controller-manager together (pkg/lab/stack, original.go).
var (
	LegacyOriginal = Variant{Name: "legacy-original", Design: "legacy", Original: stack.OriginalManager, Build: original.BuildHint, Checks: Legacy.Name}
	StackOriginal  = Variant{Name: "stack-original", Design: "legacy", Original: stack.OriginalStack, Build: original.BuildHint, Checks: Legacy.Name}
)

// Variants lists every variant above, in the order reports show them.
var Variants = []Variant{Legacy, Modern, ModernUnthrottled, Upstream, UpstreamUnthrottled, LegacyOriginal, StackOriginal}

// without says whether the variant's manager runs without the named change
// of pkg/history (its -without flag).
func (v Variant) without(change string) bool {
	for _, arg := range v.ManagerArgs {
		if list, ok := strings.CutPrefix(arg, "-without="); ok && slices.Contains(strings.Split(list, ","), change) {
			return true
		}
	}
	return false
}

// Binary is the controller-manager binary the variant runs.
func (v Variant) Binary() string {
	if v.Manager != "" {
		return v.Manager
	}
	return stack.ManagerBinary(v.Design)
}

// Size scales a scenario.
type Size struct {
	// Label names the size in reports, e.g. "N=1000".
	Label string
	// Replicas is N: the pods of the controller under study.
	Replicas int
	// Controllers is M, for scenarios with many controllers.
	Controllers int
	// Period is the controller-managers' sync period (10 s, as 2014).
	Period time.Duration
	// Window is how long the scenario observes a steady state or a fault.
	Window time.Duration
	// Rate is a per-second rate (churn).
	Rate float64
	// PodsFirst, in idle, has the benchmark create the controllers and
	// their pods before any controller-manager runs (see
	// startControllersPodsFirst), instead of a manager scaling them up:
	// the cluster starts without one.
	PodsFirst bool
	// Crash, in crash, says what is killed (CrashAPIServer, …).
	Crash string `json:",omitempty"`
	// EtcdMembers, when set, runs the apiserver on an external etcd
	// cluster of that many members, which the scenario may kill.
	EtcdMembers int `json:",omitempty"`
}

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

// Result is one headline figure of a run.
type Result struct {
	Name  string  `json:"name"`
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
	// Process names the process whose figure this is (sampler.Process*):
	// whose CPU, memory, goroutines or sockets, whose requests. Empty
	// means the cluster as a whole, seen through the measuring side's pod
	// watch: pod counts and times to a state.
	Process string `json:"process,omitempty"`
	// LowerIsBetter says which way is good, for reports.
	LowerIsBetter bool `json:"lowerIsBetter"`
}

// Scenario is one situation to replay.
type Scenario struct {
	Name  string
	Title string
	// Reproduces names the historical issue, with its number.
	Reproduces string
	// Explain says what the scenario shows, for the docs and reports.
	Explain string
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
	// Script is what the scenario does at a size, the figures it reports
	// and the outcome each design must show.
	Script Script
}

// Script is the part of a scenario that acts: each scenario has its own.
type Script interface {
	// Steps returns the steps for a size.
	Steps(sz Size) []Step
	// Results computes the headline figures once the steps are done.
	Results(e *Env) []Result
	// Expect checks the outcome a variant must show at this size; the
	// tests call it.
	Expect(variant string, sz Size, results map[string]float64) error
}

// All returns every scenario, in the order reports and talk mode present
// them.
func All() []*Scenario {
	return []*Scenario{
		scaleUp(), scaleDown(), partialScaleDown(),
		idle(), churn(), apiErrors(), watchDrop(),
		twoManagers(), restart(), crash(), overlap(), recreate(), watchWindow(),
	}
}

// Get returns the named scenario.
func Get(name string) (*Scenario, error) {
	for _, sc := range All() {
		if sc.Name == name {
			return sc, nil
		}
	}
	return nil, fmt.Errorf("no scenario named %q (known: %v)", name, Names())
}

// Names returns the scenario names in presentation order.
func Names() []string {
	var names []string
	for _, sc := range All() {
		names = append(names, sc.Name)
	}
	return names
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

// ResultMap turns results into a name → value map.
func ResultMap(results []Result) map[string]float64 {
	m := make(map[string]float64, len(results))
	for _, r := range results {
		m[r.Name] = r.Value
	}
	return m
}
