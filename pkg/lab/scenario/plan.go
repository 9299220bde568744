package scenario

// Bench says how make bench runs a scenario unless its flags say
// otherwise. A scenario without one (a nil Scenario.Bench) is in neither
// default selection and runs on DefaultBenchVariants at its standard sizes:
// named, or with -scenarios=all, it runs in full.
type Bench struct {
	// Default puts the scenario in a plain make bench.
	Default bool
	// Quick puts it in make bench BENCH_FLAGS=-quick.
	Quick bool
	// Variants narrows the variants when -variants is not given (none
	// means DefaultBenchVariants): where the client throttle cannot
	// matter (nothing to create, or fewer creates than its burst of 30),
	// modern-unthrottled would only repeat modern.
	Variants []string
	// QuickVariants narrows them further under -quick (none means
	// Variants).
	QuickVariants []string
	// DefaultRuns, when set, caps the runs of the scenario in the default
	// selection (without -runs): for scenarios whose long windows count
	// ticks and races rather than time, fewer runs still give a spread.
	DefaultRuns int
	// DefaultSizes picks the sizes of a default run.
	DefaultSizes SizeChoice
	// ThrottledMax, when set, runs the throttled modern variant only at
	// sizes of at most this many replicas in the default selection: above
	// its burst of 30 it creates at 20 pods a second by construction, so a
	// larger size only takes N/20 seconds to show the same rate again.
	ThrottledMax int
}

// SizeChoice says which of a scenario's sizes a default run of make bench
// takes.
type SizeChoice int

const (
	// StandardSizes are Sizes(false, large): every size the scenario has.
	StandardSizes SizeChoice = iota
	// QuickSizes are Sizes(true, large): for scenarios whose standard
	// window alone would use up the time budget.
	QuickSizes
	// LargestSizeOnly is the largest standard size only.
	LargestSizeOnly
)

var (
	// DefaultBenchVariants are the variants make bench runs a scenario on
	// when neither -variants nor the scenario's Bench narrows them: 2014,
	// today's design under its client throttle, and today's without it.
	DefaultBenchVariants = []string{Legacy.Name, Modern.Name, ModernUnthrottled.Name}
	// LegacyAndModern are 2014's design and today's, throttled, for a
	// Bench whose scenario the client throttle cannot change.
	LegacyAndModern = []string{Legacy.Name, Modern.Name}
)
