package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
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
	// Stack, when StackToday, runs the scenario on today's whole control
	// plane (pkg/lab/stack/today) instead of ours; Manager is then
	// kube-controller-manager and ManagerArgs are its flags.
	Stack string
	// SchedulerArgs are extra kube-scheduler flags, on today's stack.
	SchedulerArgs []string
	// LabReader, when set, is how the laboratory reads pods in this
	// variant's runs (stack.Config.LabReader), whatever the benchmark's
	// -lab_reader: a control run of the laboratory's learner,
	// "<variant>-reading-members", is the same variant reading the
	// members directly.
	LabReader string
	// Unmetered, on today's stack, runs it without the laboratory's meter
	// in front of kube-apiserver (today.Config.Meter): a control run of
	// the meter, "<variant>-unmetered", which prices the hop every
	// client's requests take through it. Nothing counts the requests
	// then, and the run leaves out the figures the meter counts
	// (NotMetered).
	Unmetered bool
}

// StackToday names today's stack (Variant.Stack).
const StackToday = "today"

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

// Today's whole control plane, run by make today's upstream binaries: the
// other side of "stack against stack". stack-today is
// kube-controller-manager on its own defaults, which are what a real
// cluster runs, its client limit of 20 requests a second with bursts of 30
// included; stack-today-unthrottled raises that limit out of reach, and
// kube-scheduler's (schedulerUnthrottled), to set beside legacy and
// modern-unthrottled. Their Design is the one
// kube-controller-manager's replication manager follows.
var (
	StackTodayDefaults = Variant{Name: "stack-today", Design: "modern", Stack: StackToday, Manager: today.ControllerManager, Build: "make today",
		Checks: ModernToday.Name}
	StackTodayUnthrottled = Variant{Name: "stack-today-unthrottled", Design: "modern", Stack: StackToday, Manager: today.ControllerManager, Build: "make today",
		Checks: ModernTodayUnthrottled.Name, ManagerArgs: []string{"--kube-api-qps=100000", "--kube-api-burst=100000"}, SchedulerArgs: schedulerUnthrottled}
)

// schedulerUnthrottled lifts kube-scheduler's client limit (50 requests a
// second, bursts of 100, one request a binding) as kwokctl's
// --disable-qps-limits does, for the unthrottled variants on today's
// stack: our hollow nodes bind without a limit, and at the default a
// scale-up of 10 000 would wait 200 s on the scheduler's binds alone.
var schedulerUnthrottled = []string{"--kube-api-qps=5000", "--kube-api-burst=10000"}

// Our port of today's design on today's whole control plane: our modern
// controller-manager against kube-apiserver, its informers client-go's and
// its writes through client-go's clientset (its -kubeconfig), beside a
// kube-controller-manager of the controllers ours has no port of
// (today.Config.OurManager). stack-today is its original: upstream's
// manager on the same read path. modern-today keeps our binary's
// defaults, kube-controller-manager's client limit of 20 requests a
// second with bursts of 30; modern-today-unthrottled lifts it.
var (
	ModernToday            = Variant{Name: "modern-today", Design: "modern", Stack: StackToday, Build: "make build and make today"}
	ModernTodayUnthrottled = Variant{Name: "modern-today-unthrottled", Design: "modern", Stack: StackToday, Build: "make build and make today",
		ManagerArgs: []string{"-kube_api_qps=0"}, SchedulerArgs: schedulerUnthrottled}
)

// CountsRequests says whether the variant's runs count the managers'
// requests: not on an external cluster (NotMeasuredOutside), nor on
// today's stack without its meter (NotMetered).
func (v Variant) CountsRequests() bool { return v.Stack != StackExternal && !v.Unmetered }

// Ours says whether the variant runs our manager on today's stack.
func (v Variant) Ours() bool { return v.Stack == StackToday && v.Manager == "" }

// Variants lists every variant above, in the order reports show them.
var Variants = []Variant{Legacy, Modern, ModernUnthrottled, Upstream, UpstreamUnthrottled, LegacyOriginal, StackOriginal, StackTodayDefaults, StackTodayUnthrottled,
	ModernToday, ModernTodayUnthrottled, External}

// OnToday says whether the variant runs on today's control plane: the
// stack make today builds, or an external cluster (External).
func (v Variant) OnToday() bool { return v.Stack == StackToday || v.Stack == StackExternal }

// VariantByName returns the variant of Variants called name, or a control
// run of one: "<variant>-without-<change>[+<change>…]" is that variant of
// today's design with the changes of pkg/history switched off (its
// manager's -without flag), so that a reason that names a change as a
// cause can be tested by the benchmark, beside the variant it explains.
func VariantByName(name string) (Variant, error) {
	var names []string
	for _, v := range Variants {
		if v.Name == name {
			return v, nil
		}
		names = append(names, v.Name)
	}
	if base, ok := strings.CutSuffix(name, "-unmetered"); ok {
		v, err := VariantByName(base)
		if err != nil {
			return Variant{}, err
		}
		if v.Stack != StackToday || v.Unmetered {
			return Variant{}, fmt.Errorf("variant %q: only a variant on today's stack has the laboratory's meter to run without, and %s is not one", name, base)
		}
		v.Name, v.Unmetered = name, true
		return v, nil
	}
	if base, reader, ok := strings.Cut(name, "-reading-"); ok {
		return readingVariant(name, base, reader)
	}
	if base, changes, ok := strings.Cut(name, "-without-"); ok {
		v, err := VariantByName(base)
		if err != nil {
			return Variant{}, err
		}
		if v.Design != Modern.Design || v.Manager != "" || v.Original != "" {
			return Variant{}, fmt.Errorf("variant %q: only our port of today's design has -without switches, and %s is not it", name, base)
		}
		list := strings.Split(changes, "+")
		for _, c := range list {
			ch, err := history.Get(c)
			if err != nil {
				return Variant{}, fmt.Errorf("variant %q: %v", name, err)
			}
			if !ch.Switchable() {
				return Variant{}, fmt.Errorf("variant %q: %s cannot be switched off", name, c)
			}
		}
		v.Name = name
		v.ManagerArgs = append(append([]string{}, v.ManagerArgs...), "-without="+strings.Join(list, ","))
		return v, nil
	}
	return Variant{}, fmt.Errorf("no variant named %q (known: %s, or a control run of one of today's design: <variant>-without-<change>, "+
		"or of the laboratory's reader: <variant>-reading-<%s>)", name, strings.Join(names, ", "), strings.Join(readers, "|"))
}

// readers are the laboratory's ways of reading pods a control run can
// name (stack.Config.LabReader).
var readers = []string{stack.LabLearner, stack.LabLearnerNice, stack.LabMembers}

// readingVariant is the control run name of base with the laboratory
// reading pods by reader: on our stack only, where the laboratory reads
// etcd (today's stack and an external cluster are read through their
// apiserver).
func readingVariant(name, base, reader string) (Variant, error) {
	v, err := VariantByName(base)
	if err != nil {
		return Variant{}, err
	}
	if !slices.Contains(readers, reader) {
		return Variant{}, fmt.Errorf("variant %q: the laboratory reads pods by %s, not %q", name, strings.Join(readers, ", "), reader)
	}
	if v.Stack != "" || v.Original == stack.OriginalStack || v.LabReader != "" {
		return Variant{}, fmt.Errorf("variant %q: only a variant on our stack's etcd can choose how the laboratory reads it, and %s is not one", name, base)
	}
	v.Name, v.LabReader = name, reader
	return v, nil
}

// Without says whether the variant's manager runs without the named change
// of pkg/history (its -without flag).
func (v Variant) Without(change string) bool {
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
