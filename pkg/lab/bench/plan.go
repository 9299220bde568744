package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// Calibrate is the name of the bench-only first step: the stack's ceiling.
const Calibrate = "calibrate"

// All names every scenario, calibrate first, at standard sizes.
const All = "all"

// planLine says how the benchmark runs one scenario unless told otherwise.
type planLine struct {
	// inDefault puts the scenario in a plain make bench.
	inDefault bool
	// quick puts it in make bench BENCH_FLAGS=-quick.
	quick bool
	// variants narrows the variants when -variants is not given: where the
	// client throttle cannot matter (nothing to create, or fewer creates
	// than its burst of 30), modern-unthrottled would only repeat modern.
	variants []string
	// quickVariants narrows them further under -quick.
	quickVariants []string
	// defaultRuns, when set, caps the runs of a scenario in the default
	// selection (without -runs): for scenarios whose long windows count
	// ticks and races rather than time, fewer runs still give a spread.
	defaultRuns int
	// defaultSizes picks the sizes of a default run.
	defaultSizes sizeChoice
	// throttledMax, when set, runs the throttled modern variant only at
	// sizes of at most this many replicas in the default selection: above
	// its burst of 30 it creates at 20 pods a second by construction, so a
	// larger size only takes N/20 seconds to show the same rate again.
	throttledMax int
}

// sizeChoice says which of a scenario's sizes a default run takes.
type sizeChoice int

const (
	// standardSizes are Sizes(false, large): every size the scenario has.
	standardSizes sizeChoice = iota
	// quickSizes are Sizes(true, large): for scenarios whose standard
	// window alone would use up the time budget.
	quickSizes
	// largestOnly is the largest standard size only.
	largestOnly
)

var (
	allThree     = []string{"legacy", "modern", "modern-unthrottled"}
	legacyModern = []string{"legacy", "modern"}
)

// plan is the benchmark's default selection. Every scenario with figures
// worth comparing is in the default run except where its windows cannot
// fit the time budget; partial-scale-down, overlap, recreate and
// watch-window are demonstrations whose outcome is a yes or no, shown by
// make demo and asserted by the tests.
var plan = map[string]planLine{
	"scale-up":           {inDefault: true, quick: true, variants: allThree, quickVariants: allThree, throttledMax: 100},
	"scale-down":         {inDefault: false, variants: allThree},
	"partial-scale-down": {variants: legacyModern},
	"idle":               {inDefault: true, quick: true, variants: legacyModern, quickVariants: legacyModern, defaultSizes: quickSizes, defaultRuns: 2},
	"churn":              {inDefault: false, variants: allThree},
	"api-errors":         {inDefault: false, variants: allThree},
	"watch-drop":         {inDefault: false, variants: allThree},
	"two-managers":       {inDefault: true, quick: false, variants: legacyModern, defaultRuns: 2},
	"restart":            {inDefault: true, variants: legacyModern, defaultSizes: quickSizes},
	"crash":              {variants: legacyModern},
	"overlap":            {variants: legacyModern},
	"recreate":           {variants: legacyModern},
	"watch-window":       {variants: legacyModern},
}

// Options configures one benchmark.
type Options struct {
	// Scenarios to run, by name, "calibrate" included; empty means the
	// default selection (or the quick one).
	Scenarios []string
	// Variants to compare, by name; empty means each scenario's default.
	Variants []string
	// Runs per scenario, size and variant; 0 means 3, or 1 with Quick.
	Runs int
	// Quick shrinks sizes and the selection to fit quickBudget.
	Quick bool
	// Large adds the largest sizes (N=10 000).
	Large bool
	// Sweep runs scale-up and idle over a range of sizes instead (quick:
	// a short range), to draw each cost against the cluster's size.
	Sweep bool
	// Etcd3 adds to a sweep one size run against an external etcd
	// cluster of three members, as users who outgrow one member run it.
	Etcd3 bool
	// SweepSizes, when set, narrows a sweep to these pod counts (and
	// Scenarios to scale-up or idle), to run one point of it alone.
	SweepSizes []int
	// Profile takes CPU profiles of the apiserver and the hollow nodes in
	// every run and puts their top entries on the page.
	Profile bool
	// Out is the parent of the timestamped output directory.
	Out string
	// BinDir holds the binaries of make build.
	BinDir string
	// PNG also renders every chart as PNG, to look at without a browser.
	PNG bool
	// Seed is passed to the hollow nodes, so every run makes the same
	// random choices.
	Seed int64
	// Commit names the source the binaries were built from (make bench:
	// git describe); empty means rcbench's own build information.
	Commit string
	// Publish, when set, is a directory that the results page and its
	// chart are copied into after a run that was not interrupted.
	Publish string
	// OriginalDir holds the original v0.4 binaries for the variants
	// legacy-original and stack-original; empty means the one make
	// original fills beside BinDir (_output/v0.4).
	OriginalDir string
}

// Item is one scenario at one size, to run Runs times per variant.
type Item struct {
	Scenario *scenario.Scenario
	Size     scenario.Size
	Variants []scenario.Variant
	Runs     int
	// Limit, when set, bounds each run of the item: a run not finished
	// within it fails, its cluster killed, instead of holding up the rest.
	Limit time.Duration
	// EtcdMembers, when set, runs the item against an external etcd
	// cluster of that many members instead of the apiserver's embedded one.
	EtcdMembers int
}

// Plan is what a benchmark will do.
type Plan struct {
	Calibrate bool
	// CalibrationClients are the concurrency levels to calibrate at.
	CalibrationClients []int
	// CalibrationSeconds is how long each level is measured.
	CalibrationSeconds float64
	Items              []Item
	// RunsEach is how many times each variant of each item runs.
	RunsEach int
	// ReferenceReplicas is the largest scale-up size, which the calibration
	// also creates without a manager (0: no scale-up in the plan).
	ReferenceReplicas int
	// ListCosts asks the calibration for a LIST of ListPods pods read both
	// ways; -quick leaves it out to stay within its two minutes.
	ListCosts bool
	// Notes are said in the report: variants skipped and why.
	Notes []string
	// Choices say where the default selection departs from each
	// scenario's standard sizes and the requested runs, to fit its budget.
	Choices []string
	// Sweep says the items are a sweep's: once a design breaks at a size,
	// its larger sizes of that scenario are not run.
	Sweep bool
	// Budget, when set, is the wall-clock time after which no further run
	// starts; the runs left are named as not run.
	Budget time.Duration
}

// Runs returns the number of scenario runs in the plan.
func (p *Plan) Runs() int {
	n := 0
	for _, it := range p.Items {
		n += it.Runs * len(it.Variants)
	}
	return n
}

// VariantByName returns one of the variants pkg/lab/scenario defines.
func VariantByName(name string) (scenario.Variant, error) {
	var names []string
	for _, v := range scenario.Variants {
		if v.Name == name {
			return v, nil
		}
		names = append(names, v.Name)
	}
	return scenario.Variant{}, fmt.Errorf("no variant named %q (known: %s)", name, strings.Join(names, ", "))
}

// missingBinaries tracks the variants left out of a run because their
// controller-manager binary is not in dir, one note per binary.
type missingBinaries struct {
	dir string
	// originals holds the original v0.4 binaries (Options.originalDir).
	originals string
	variants  map[string][]string
	order     []string
	build     map[string]string
}

// newMissingBinaries tracks the binaries of opts.
func newMissingBinaries(opts Options) *missingBinaries {
	return &missingBinaries{dir: opts.BinDir, originals: opts.originalDir()}
}

// skip reports whether v's binary is missing, and remembers v if so. An
// original variant needs every binary of make original.
func (m *missingBinaries) skip(v scenario.Variant) bool {
	bin := v.Binary()
	if v.Original != "" {
		if original.Available(m.originals) == nil {
			return false
		}
		bin = filepath.Join(m.originals, bin)
	} else if haveBinary(m.dir, bin) {
		return false
	}
	if m.variants == nil {
		m.variants, m.build = map[string][]string{}, map[string]string{}
	}
	if _, ok := m.variants[bin]; !ok {
		m.order = append(m.order, bin)
		m.build[bin] = v.Build
	}
	if !slices.Contains(m.variants[bin], v.Name) {
		m.variants[bin] = append(m.variants[bin], v.Name)
	}
	return true
}

// notes says, a line per missing binary, what was left out and how to
// build it.
func (m *missingBinaries) notes() []string {
	var out []string
	for _, bin := range m.order {
		build := m.build[bin]
		if build == "" {
			build = "make build"
		}
		dir, name := m.dir, bin
		if filepath.IsAbs(bin) {
			dir, name = filepath.Dir(bin), filepath.Base(bin)
		}
		out = append(out, fmt.Sprintf("%s was not found in %s, so %s did not run: %s builds it.",
			name, dir, strings.Join(m.variants[bin], " and "), build))
	}
	return out
}

// SplitList splits a comma-separated flag value, dropping blanks.
func SplitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// DefaultScenarios returns the scenarios a run selects when none are
// named, calibrate first.
func DefaultScenarios(quick bool) []string {
	out := []string{Calibrate}
	for _, name := range scenario.Names() {
		line := plan[name]
		if (quick && line.quick) || (!quick && line.inDefault) {
			out = append(out, name)
		}
	}
	return out
}

// haveBinary reports whether dir holds an executable file name.
func haveBinary(dir, name string) bool {
	info, err := os.Stat(filepath.Join(dir, name))
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// BuildPlan turns options into the list of runs. A variant whose
// controller-manager binary is missing is dropped with a note rather than
// failing every run of it.
func BuildPlan(opts Options) (*Plan, error) {
	if opts.Etcd3 && !opts.Sweep {
		return nil, fmt.Errorf("-etcd3 adds a point to a sweep; it needs -sweep")
	}
	if len(opts.SweepSizes) > 0 && !opts.Sweep {
		return nil, fmt.Errorf("-sizes picks points of a sweep; it needs -sweep")
	}
	if opts.Sweep {
		for _, n := range opts.Scenarios {
			if n != "scale-up" && n != "idle" {
				return nil, fmt.Errorf("-sweep runs scale-up and idle; -scenarios can narrow it to one of them, not %q", n)
			}
		}
		return buildSweepPlan(opts)
	}
	names := opts.Scenarios
	if len(names) == 0 {
		names = DefaultScenarios(opts.Quick)
	}
	var expanded []string
	for _, n := range names {
		if n == All {
			expanded = append(append(expanded, Calibrate), scenario.Names()...)
			continue
		}
		expanded = append(expanded, n)
	}
	names = expanded
	runs := opts.Runs
	if runs == 0 {
		runs = 3
		if opts.Quick {
			runs = 1
		}
	}
	if runs < 0 {
		return nil, fmt.Errorf("-runs must be at least 1, not %d", runs)
	}
	for _, v := range opts.Variants {
		if _, err := VariantByName(v); err != nil {
			return nil, err
		}
	}

	p := &Plan{RunsEach: runs, CalibrationClients: CalibrationClients, CalibrationSeconds: 2, ListCosts: true}
	if opts.Quick {
		p.ListCosts = false
		// The quick calibration measures only the 64 clients the create
		// floor needs, for a second: enough to read a rate, and a few
		// seconds saved for the 2-minute budget.
		p.CalibrationClients, p.CalibrationSeconds = []int{FloorClients}, 1
	}
	missing := newMissingBinaries(opts)

	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if name == Calibrate {
			p.Calibrate = true
			continue
		}
		sc, err := scenario.Get(name)
		if err != nil {
			return nil, fmt.Errorf("%v, or %s", err, Calibrate)
		}
		wanted := opts.Variants
		if len(wanted) == 0 {
			line := plan[name]
			wanted = line.variants
			if opts.Quick && line.quickVariants != nil {
				wanted = line.quickVariants
			}
			if wanted == nil {
				wanted = allThree
			}
		}
		var variants []scenario.Variant
		for _, w := range wanted {
			v, _ := VariantByName(w)
			if !missing.skip(v) {
				variants = append(variants, v)
			}
		}
		if len(variants) == 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("%s was not run: none of its variants (%s) has a binary.", name, strings.Join(wanted, ", ")))
			continue
		}
		sizes, n, why := sc.Sizes(opts.Quick, opts.Large), runs, []string(nil)
		if line := plan[name]; len(opts.Scenarios) == 0 && !opts.Quick {
			switch line.defaultSizes {
			case quickSizes:
				sizes = sc.Sizes(true, opts.Large)
				why = append(why, "its quick size")
			case largestOnly:
				all := sc.Sizes(false, false)
				sizes = append(all[len(all)-1:], sc.Sizes(false, opts.Large)[len(all):]...)
				why = append(why, "its largest size only")
			}
			if line.defaultRuns > 0 && opts.Runs == 0 && line.defaultRuns < n {
				n = line.defaultRuns
				why = append(why, fmt.Sprintf("%d runs", n))
			}
		}
		var labels []string
		for _, sz := range sizes {
			vs := variants
			if line := plan[name]; len(opts.Scenarios) == 0 && len(opts.Variants) == 0 && !opts.Quick && line.throttledMax > 0 && sz.Replicas > line.throttledMax {
				vs = nil
				for _, v := range variants {
					if v.Name != scenario.Modern.Name {
						vs = append(vs, v)
					}
				}
				if len(vs) < len(variants) {
					p.Choices = append(p.Choices, fmt.Sprintf("%s %s: no modern (throttled) run, which would take N/20 s to show the 20 pods/s its smaller size already shows",
						name, sz.Label))
				}
			}
			p.Items = append(p.Items, Item{Scenario: sc, Size: sz, Variants: vs, Runs: n})
			labels = append(labels, sz.Label)
		}
		if len(why) > 0 {
			p.Choices = append(p.Choices, fmt.Sprintf("%s: %s (%s)", name, strings.Join(why, " and "), strings.Join(labels, ", ")))
		}
	}
	// The reference is taken at the largest scale-up size, the quick
	// run's N=100 included: a few seconds buy the finding its yardstick.
	for _, it := range p.Items {
		if it.Scenario.Name == "scale-up" && it.Size.Replicas > p.ReferenceReplicas && p.Calibrate {
			p.ReferenceReplicas = it.Size.Replicas
		}
	}
	p.Notes = append(p.Notes, missing.notes()...)
	return p, nil
}
