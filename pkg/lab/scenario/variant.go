package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/history"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// Variant is one way of running the controller-manager, described once:
// what it runs, what starts it, which comparison it belongs to and how
// every page, chart and talk names it. Nothing else keeps a list of
// variants or a table keyed by their names.
type Variant struct {
	// Name labels results: legacy, modern, modern-unthrottled, upstream.
	Name string
	// Heading and Sub name the variant's column on the live page and in
	// a talk, and Short names it in the terminal's counters and notes;
	// Name stands in for an empty one.
	Heading, Sub, Short string
	// Color is the variant's colour in every chart and its column's in
	// the HTML report, as #rrggbb (the Okabe–Ito palette, which readers
	// with colour-blindness can tell apart); empty for the grey of a
	// variant without one.
	Color string
	// Comparison is the comparison the variant belongs to: DesignAlone
	// or StackAgainstStack.
	Comparison string
	// WholeStack, where the variant is a whole control plane, is the
	// side it stands for when the stacks are set against each other:
	// Stack2014 or StackOfToday.
	WholeStack string
	// Design is the design the manager follows, legacy or modern: what a
	// scenario may expect of it (pods owned by selector or by
	// ControllerRef, a leader election), and the binary it runs unless
	// Manager names another.
	Design string
	// Manager, when set, is the controller-manager binary to run instead
	// of the design's (stack.ManagerBinary).
	Manager string
	// Build says how to build the variant's binaries, for the note of a
	// run that finds them missing.
	Build string
	// Checks names the variant of ours this one is the original of: the
	// benchmark sets the two side by side (upstream checks modern).
	Checks string
	// ManagerArgs are extra controller-manager flags.
	ManagerArgs []string
	// Launcher starts the variant's cluster: ours (nil stands for it),
	// the originals', today's or an external one.
	Launcher *Launcher
	// Original, with the originals' launcher, names which of make
	// original's v0.4 binaries run (stack.OriginalManager or
	// stack.OriginalStack), from its directory; Design is then the
	// design they must show, legacy.
	Original string
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
	// client's requests take through it. On v0.4's own apiserver it
	// leaves out the meter that counts its requests (stack.Config.NoMeter),
	// as parity does. Nothing counts the managers' requests then, and the
	// run leaves out the figures the meter counts (NotMetered).
	Unmetered bool
	// Parity gives the variant's stack the fair fight's work (parity.go):
	// the same nodes, simulated kubelets and lack of limits on both
	// sides, and no meter.
	Parity bool
	// Ablation, on a parity variant of today's stack, names the one
	// thing its control run sets otherwise (ablation.go).
	Ablation string
}

// The two comparisons a variant belongs to (Variant.Comparison): every
// manager on our v0.4 apiserver and hollow nodes, where only the
// controller changes, or a whole control plane against another.
const (
	DesignAlone       = "design alone"
	StackAgainstStack = "stack against stack"
)

// The two sides of stack against stack (Variant.WholeStack).
const (
	Stack2014    = "2014"
	StackOfToday = "today"
)

// Launcher is what starts a variant's cluster, and what that cluster lets
// the laboratory do.
type Launcher struct {
	// Key names the launcher in a run's record, and never changes.
	Key string
	// Name names the launcher in messages.
	Name string
	// OnToday says the cluster is today's control plane: the scenarios
	// that need more of our stack do not run there (NotOnToday).
	OnToday bool
	// Metered says a meter in front of the apiserver counts the requests
	// and can be left out (Variant.Unmetered).
	Metered bool
	// ReadsEtcd says the laboratory reads the pods from our etcd and may
	// choose how (Variant.LabReader).
	ReadsEtcd bool
	// Counts says the laboratory counts the managers' requests there.
	Counts bool
	start  func(sc *Scenario, v Variant, sz Size, opts Options) (*Env, error)
}

// The launchers. Each variant names one; a variant of another stack is a
// launcher here and its description in Variants.
var (
	// OurStack starts our v0.4 apiserver, hollow nodes and the variant's
	// manager (pkg/lab/stack).
	OurStack = &Launcher{Key: "ours", Name: "our stack", ReadsEtcd: true, Counts: true}
	// Originals starts make original's v0.4 binaries, the manager alone
	// on our apiserver or the whole of them (Variant.Original).
	Originals = &Launcher{Key: "originals", Name: "the original v0.4 binaries", ReadsEtcd: true, Counts: true}
	// TodayStack starts today's whole control plane (pkg/lab/stack/today).
	TodayStack = &Launcher{Key: "today", Name: "today's stack", OnToday: true, Metered: true, Counts: true}
	// ExternalCluster runs on the cluster a kubeconfig names, as it is.
	ExternalCluster = &Launcher{Key: "external", Name: "an external cluster", OnToday: true}
)

// launchers are the launchers above, which a run's record names.
var launchers = []*Launcher{OurStack, Originals, TodayStack, ExternalCluster}

// MarshalJSON writes the launcher as its key: a record says what started
// its runs, and reading it back finds the launcher of that key.
func (l *Launcher) MarshalJSON() ([]byte, error) { return json.Marshal(l.Key) }

// UnmarshalJSON finds the launcher a record names.
func (l *Launcher) UnmarshalJSON(data []byte) error {
	var key string
	if err := json.Unmarshal(data, &key); err != nil {
		return err
	}
	for _, known := range launchers {
		if known.Key == key {
			*l = *known
			return nil
		}
	}
	return fmt.Errorf("no launcher %q (known: ours, originals, today, external)", key)
}

func init() {
	OurStack.start = startOurs
	Originals.start = startOurs
	TodayStack.start = startToday
	ExternalCluster.start = startExternal
}

// launcher is the variant's launcher, ours when it names none. A
// variant read back from a record holds a copy of its launcher, so it is
// found again by name.
func (v Variant) launcher() *Launcher {
	if v.Launcher == nil {
		return OurStack
	}
	for _, l := range launchers {
		if l == v.Launcher || l.Key == v.Launcher.Key {
			return l
		}
	}
	return v.Launcher
}

// Runs says whether l starts the variant's cluster.
func (v Variant) Runs(l *Launcher) bool { return v.launcher() == l }

// Describe returns what pages call the variant: its heading, sub-heading
// and short name, Name standing in for those it lacks.
func (v Variant) Describe() (heading, sub, short string) {
	heading, sub, short = v.Heading, v.Sub, v.Short
	if heading == "" {
		heading = v.Name
	}
	if short == "" {
		short = v.Name
	}
	return heading, sub, short
}

// InComparison is the variant's comparison: its own, else stack against
// stack on today's control plane, else the design alone.
func (v Variant) InComparison() string {
	switch {
	case v.Comparison != "":
		return v.Comparison
	case v.launcher().OnToday:
		return StackAgainstStack
	}
	return DesignAlone
}

// The variants the benchmark compares. The modern design runs once with
// kube-controller-manager's client limits (20 QPS, burst 30) and once
// without, so that the design and the throttle can be told apart; today's
// upstream replication manager runs both ways too, beside each. An
// unthrottled variant shares its colour and is dashed in the charts.
var (
	Legacy = Variant{Name: "legacy", Design: "legacy", Color: "#D55E00", WholeStack: Stack2014,
		Heading: "2014", Sub: "v0.4: a watch, a LIST every 10 s, a goroutine per pod", Short: "2014"}
	Modern = Variant{Name: "modern", Design: "modern", Color: "#0072B2",
		Heading: "Today", Sub: "informers, workqueue, expectations, slow start", Short: "today"}
	ModernUnthrottled = Variant{Name: "modern-unthrottled", Design: "modern", Color: "#009E73", ManagerArgs: []string{"-kube_api_qps=0"},
		Sub: "today's design, its client limit lifted"}
	Upstream = Variant{Name: "upstream", Design: "modern", Manager: "controller-manager-upstream", Build: "make upstream", Checks: Modern.Name, Color: "#CC79A7",
		Heading: "Upstream today", Sub: "k8s.io/kubernetes's own replication manager, unmodified, through an adapter", Short: "upstream"}
	UpstreamUnthrottled = Variant{Name: "upstream-unthrottled", Design: "modern", Manager: "controller-manager-upstream", Build: "make upstream", Checks: ModernUnthrottled.Name,
		Color: "#CC79A7", ManagerArgs: []string{"-kube_api_qps=0"}, Sub: "upstream's replication manager, its client limit lifted"}
)

// The original v0.4 binaries of make original, beside our port of 2014:
// the original controller-manager on our apiserver, and the original
// apiserver and controller-manager together (pkg/lab/stack, original.go).
var (
	LegacyOriginal = Variant{Name: "legacy-original", Design: "legacy", Launcher: Originals, Original: stack.OriginalManager, Build: original.BuildHint, Checks: Legacy.Name,
		Color: "#E69F00", Heading: "2014, the real one", Sub: "Kubernetes v0.4's own controller-manager (make original) on our apiserver", Short: "v0.4's binary"}
	StackOriginal = Variant{Name: "stack-original", Design: "legacy", Launcher: Originals, WholeStack: Stack2014, Original: stack.OriginalStack, Build: original.BuildHint, Checks: Legacy.Name,
		Color: "#000000", Heading: "2014, its own binaries", Sub: "v0.4's own apiserver and controller-manager (make original), hollow nodes as its kubelets", Short: "v0.4's stack"}
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
	StackTodayDefaults = Variant{Name: "stack-today", Design: "modern", Launcher: TodayStack, WholeStack: StackOfToday, Manager: today.ControllerManager, Build: "make today",
		Checks:  ModernToday.Name,
		Heading: "Today, the whole real one", Sub: "kube-apiserver, kube-controller-manager and kube-scheduler v1.37 at their defaults, KWOK's nodes (make today)",
		Short: "today's stack"}
	StackTodayUnthrottled = Variant{Name: "stack-today-unthrottled", Design: "modern", Launcher: TodayStack, WholeStack: StackOfToday, Manager: today.ControllerManager, Build: "make today",
		Checks: ModernTodayUnthrottled.Name, ManagerArgs: []string{"--kube-api-qps=100000", "--kube-api-burst=100000"}, SchedulerArgs: schedulerUnthrottled,
		Heading: "Today, the whole real one, unthrottled", Sub: "today's control plane (make today), kube-controller-manager's client limit raised out of reach",
		Short: "today's stack, unthrottled"}
)

// The fair fight: each side at parity (parity.go), so that what differs is
// the control plane. legacy-parity is our port of 2014 and
// stack-original-parity v0.4's own binaries, beside stack-today-parity,
// today's stack unthrottled with priority and fairness off and no meter;
// stack-today-unthrottled stays as the laboratory ran it before parity.
var (
	LegacyParity = Variant{Name: "legacy-parity", Design: "legacy", WholeStack: Stack2014, Parity: true, LabReader: stack.LabWAL,
		Color: "#D55E00", Heading: "2014, our port, at parity", Sub: "our port of v0.4 with the fair fight's nodes and kubelets", Short: "2014 at parity"}
	StackOriginalParity = Variant{Name: "stack-original-parity", Design: "legacy", Launcher: Originals, WholeStack: Stack2014, Original: stack.OriginalStack,
		Build: original.BuildHint, Checks: LegacyParity.Name, Parity: true, Unmetered: true, LabReader: stack.LabWAL,
		Color: "#000000", Heading: "2014, its own binaries, at parity", Sub: "v0.4's own apiserver and controller-manager with the fair fight's nodes and kubelets", Short: "v0.4 at parity"}
	StackTodayParity = Variant{Name: "stack-today-parity", Design: "modern", Launcher: TodayStack, WholeStack: StackOfToday, Manager: today.ControllerManager, Build: "make today",
		ManagerArgs: StackTodayUnthrottled.ManagerArgs, SchedulerArgs: schedulerUnthrottled, Unmetered: true, Parity: true, LabReader: stack.LabWAL,
		Heading: "Today, the whole real one, at parity", Sub: "today's control plane unthrottled, priority and fairness off, no meter, the fair fight's nodes and kubelets",
		Short: "today at parity"}
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
	ModernToday = Variant{Name: "modern-today", Design: "modern", Launcher: TodayStack, Build: "make build and make today",
		Heading: "Our port of today, on today's stack", Sub: "our modern controller-manager against kube-apiserver v1.37 through client-go, KWOK's nodes (make build, make today)",
		Short: "our port on today's stack"}
	ModernTodayUnthrottled = Variant{Name: "modern-today-unthrottled", Design: "modern", Launcher: TodayStack, Build: "make build and make today",
		ManagerArgs: []string{"-kube_api_qps=0"}, SchedulerArgs: schedulerUnthrottled,
		Heading: "Our port of today, on today's stack, unthrottled", Sub: "our modern controller-manager on today's control plane, its client limit lifted",
		Short: "our port on today's stack, unthrottled"}
)

// External is the variant of the cluster a kubeconfig names, run as it
// is: its own managers, scheduler and nodes (rcbench bench -kubeconfig).
// Its Design is today's, which a cluster of today runs.
var External = Variant{Name: "cluster", Design: "modern", Launcher: ExternalCluster, WholeStack: StackOfToday, Sub: "the cluster -kubeconfig names, as it runs"}

// CountsRequests says whether the variant's runs count the managers'
// requests: not on an external cluster (NotMeasuredOutside), nor on
// today's stack without its meter (NotMetered).
func (v Variant) CountsRequests() bool { return v.launcher().Counts && !v.Unmetered }

// OwnV04APIServer says whether the variant runs v0.4's own apiserver
// (stack-original), with its own etcd, rather than ours.
func (v Variant) OwnV04APIServer() bool { return v.Original == stack.OriginalStack }

// OnOurAPIServer says whether the variant's managers run against our
// apiserver on our etcd: not today's stack, an external cluster, or v0.4's
// own apiserver, which take no pods-first start and no etcd cluster of
// ours.
func (v Variant) OnOurAPIServer() bool { return !v.OnToday() && !v.OwnV04APIServer() }

// Ours says whether the variant runs our manager on today's stack.
func (v Variant) Ours() bool { return v.Runs(TodayStack) && v.Manager == "" }

// Variants lists every variant above, in the order reports show them.
var Variants = []Variant{Legacy, Modern, ModernUnthrottled, Upstream, UpstreamUnthrottled, LegacyOriginal, StackOriginal, StackTodayDefaults, StackTodayUnthrottled,
	LegacyParity, StackOriginalParity, StackTodayParity, ModernToday, ModernTodayUnthrottled, External}

// OnToday says whether the variant runs on today's control plane: the
// stack make today builds, or an external cluster (External).
func (v Variant) OnToday() bool { return v.launcher().OnToday }

// Help lists the variants for a flag's help text, each with its
// description and what builds it, then the control runs a name may ask
// for.
func Help() string {
	var names []string
	for _, v := range Variants {
		_, sub, _ := v.Describe()
		if sub == "" {
			sub = v.Heading
		}
		if v.Build != "" && !strings.Contains(sub, "(make ") {
			sub += ", built by " + v.Build
		}
		names = append(names, v.Name+" ("+sub+")")
	}
	return strings.Join(names, "; ") + "; or a control run of one: <variant>-without-<change>[+<change>…] (our port of today's design with " +
		"changes of pkg/history switched off), <variant>-unmetered (today's stack without the laboratory's meter), " +
		"<variant>-reading-<" + strings.Join(readers, "|") + "> (our stack, the laboratory reading pods that way), " +
		"<variant>-with-<" + strings.Join(ablationKeys(), "|") + "> (a parity variant of today's stack or of v0.4's binaries with one thing set as before parity or built otherwise)"
}

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
		if !v.launcher().Metered || v.Unmetered {
			return Variant{}, fmt.Errorf("variant %q: only a variant on a stack with the laboratory's meter has one to run without, and %s is not one", name, base)
		}
		// A control run prices the laboratory; it stands for no side
		// of stack against stack.
		v.Name, v.Unmetered, v.WholeStack = name, true, ""
		return v, nil
	}
	if base, reader, ok := strings.Cut(name, "-reading-"); ok {
		return readingVariant(name, base, reader)
	}
	if base, key, ok := strings.Cut(name, "-with-"); ok {
		return ablatedVariant(name, base, key)
	}
	if base, changes, ok := strings.Cut(name, "-without-"); ok {
		v, err := VariantByName(base)
		if err != nil {
			return Variant{}, err
		}
		if v.Design != Modern.Design || v.Manager != "" || v.Runs(Originals) {
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
		v.Name, v.WholeStack = name, ""
		v.ManagerArgs = append(append([]string{}, v.ManagerArgs...), "-without="+strings.Join(list, ","))
		return v, nil
	}
	return Variant{}, fmt.Errorf("no variant named %q (known: %s, or a control run of one of today's design: <variant>-without-<change>, "+
		"or of the laboratory's reader: <variant>-reading-<%s>)", name, strings.Join(names, ", "), strings.Join(readers, "|"))
}

// ablationKeys are the ablations' keys, each once, for messages.
func ablationKeys() []string {
	var keys []string
	for _, a := range Ablations {
		if !slices.Contains(keys, a.Key) {
			keys = append(keys, a.Key)
		}
	}
	return keys
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
	if !v.launcher().ReadsEtcd || v.OwnV04APIServer() || v.LabReader != "" {
		return Variant{}, fmt.Errorf("variant %q: only a variant on our stack's etcd can choose how the laboratory reads it, and %s is not one", name, base)
	}
	v.Name, v.LabReader, v.WholeStack = name, reader, ""
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
