package scenario

import (
	"context"
	"fmt"
	"sort"
	"time"

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
	// startControllersPodsFirst), instead of a manager scaling them up.
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
	// Figure names the result that is the scenario's point (a Result's
	// Name): talk mode shows it big on each side, measured live, and its
	// deck sums each recording up by it.
	Figure string
	// Sizes lists the sizes to run: quick shrinks them, large adds the
	// biggest.
	Sizes func(quick, large bool) []Size
	// Talk is the size talk mode plays by default, for scenarios whose
	// quick size is too small to make the point on a projector; the zero
	// value means the quick size.
	Talk Size
	// Cluster returns the cluster the scenario needs; the runner fills in
	// the design, binaries and directory.
	Cluster func(sz Size) stack.Config
	// Steps returns the steps for a size.
	Steps func(sz Size) []Step
	// Results computes the headline figures once the steps are done.
	Results func(e *Env) []Result
	// Intervals overrides how often the sampler reads each source; the
	// zero value means sampler.DefaultIntervals. Scenarios that measure an
	// idle manager's CPU sample it slowly, so the measuring does not show
	// up in the measurement.
	Intervals sampler.Intervals
	// Expect checks the outcome a variant must show at this size; the
	// tests call it. Nil means there is nothing to assert.
	Expect func(variant string, sz Size, results map[string]float64) error
}

var registry = map[string]*Scenario{}

// Register adds a scenario; names must be unique.
func Register(s *Scenario) {
	if _, dup := registry[s.Name]; dup {
		panic("scenario registered twice: " + s.Name)
	}
	registry[s.Name] = s
}

// Get returns the named scenario.
func Get(name string) (*Scenario, error) {
	s, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("no scenario named %q (known: %v)", name, Names())
	}
	return s, nil
}

// All returns every scenario in a stable order.
func All() []*Scenario {
	out := make([]*Scenario, 0, len(registry))
	for _, n := range Names() {
		out = append(out, registry[n])
	}
	return out
}

// Names returns the scenario names in presentation order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		oi, oj := order(names[i]), order(names[j])
		if oi != oj {
			return oi < oj
		}
		return names[i] < names[j]
	})
	return names
}

var presentation = []string{"scale-up", "scale-down", "partial-scale-down", "idle", "churn", "api-errors", "watch-drop", "two-managers", "restart", "crash", "overlap", "recreate", "watch-window"}

func order(name string) int {
	for i, n := range presentation {
		if n == name {
			return i
		}
	}
	return len(presentation)
}

// ResultMap turns results into a name → value map.
func ResultMap(results []Result) map[string]float64 {
	m := make(map[string]float64, len(results))
	for _, r := range results {
		m[r.Name] = r.Value
	}
	return m
}
