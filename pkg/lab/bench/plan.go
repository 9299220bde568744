package bench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
)

// All names every scenario, calibrate first, at standard sizes.
const All = "all"

// planOf is how the benchmark runs sc unless told otherwise: the plan line
// its script gives it, or, where it gives none, the zero one (in no
// default selection, on scenario.DefaultBenchVariants, at its standard
// sizes). Every scenario with figures worth comparing is in the default
// run except where its windows cannot fit the time budget; the
// demonstrations, whose outcome is a yes or no, are in none.
func planOf(sc *scenario.Scenario) scenario.Bench {
	if sc.Bench == nil {
		return scenario.Bench{}
	}
	return *sc.Bench
}

// DefaultScenarios returns the scenarios a run selects when none are
// named, calibrate first.
func DefaultScenarios(quick bool) []string {
	out := []string{runner.Calibrate}
	for _, sc := range scripts.All() {
		line := planOf(sc)
		if (quick && line.Quick) || (!quick && line.Default) {
			out = append(out, sc.Name)
		}
	}
	return out
}

// BuildPlan turns options into the list of runs. A variant whose
// controller-manager binary is missing is dropped with a note rather than
// failing every run of it.
func BuildPlan(opts runner.Options) (*runner.Plan, error) {
	if opts.Etcd3 {
		return nil, fmt.Errorf("-etcd3 adds a point to a sweep; it needs -sweep")
	}
	if len(opts.SweepSizes) > 0 {
		return nil, fmt.Errorf("-sizes picks points of a sweep; it needs -sweep")
	}
	names := opts.Scenarios
	if len(names) == 0 {
		names = DefaultScenarios(opts.Quick)
	}
	var expanded []string
	for _, n := range names {
		if n == All {
			expanded = append(append(expanded, runner.Calibrate), scripts.Names()...)
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
	for _, name := range opts.Variants {
		v, err := scenario.VariantByName(name)
		if err != nil {
			return nil, err
		}
		if v.Runs(scenario.ExternalCluster) && opts.Kubeconfig == "" {
			return nil, fmt.Errorf("the variant %s runs on the cluster of a kubeconfig: give one with -kubeconfig=FILE", name)
		}
	}
	if opts.Kubeconfig != "" && !slices.Contains(opts.Variants, scenario.External.Name) {
		return nil, fmt.Errorf("-kubeconfig names the cluster of the variant %s: add it to -variants", scenario.External.Name)
	}

	p := &runner.Plan{RunsEach: runs, CalibrationClients: CalibrationClients, CalibrationSeconds: 2, ListCosts: true, WALPairs: results.WALPairs}
	if opts.Quick {
		p.ListCosts, p.WALPairs = false, 0
		// The quick calibration measures only the 64 clients the create
		// floor needs, for a second: enough to read a rate, and a few
		// seconds saved for the 2-minute budget.
		p.CalibrationClients, p.CalibrationSeconds = []int{results.FloorClients}, 1
	}
	missing := runner.NewMissingBinaries(opts)

	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		if name == runner.Calibrate {
			p.Calibrate = true
			continue
		}
		sc, err := scripts.Get(name)
		if err != nil {
			return nil, fmt.Errorf("%v, or %s", err, runner.Calibrate)
		}
		line := planOf(sc)
		wanted := opts.Variants
		if len(wanted) == 0 {
			wanted = line.Variants
			if opts.Quick && line.QuickVariants != nil {
				wanted = line.QuickVariants
			}
			if wanted == nil {
				wanted = scenario.DefaultBenchVariants
			}
		}
		var variants []scenario.Variant
		for _, w := range wanted {
			v, _ := scenario.VariantByName(w)
			if why := scenario.NotOnToday(sc); v.OnToday() && why != "" {
				p.Notes = append(p.Notes, fmt.Sprintf("%s was not run on %s: %s.", name, v.Name, why))
				continue
			}
			if !missing.Skip(v) {
				variants = append(variants, v)
			}
		}
		if len(variants) == 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("%s was not run: none of its variants (%s) has a binary.", name, strings.Join(wanted, ", ")))
			continue
		}
		sizes, n, why := sc.Sizes(opts.Quick, opts.Large), runs, []string(nil)
		if len(opts.Scenarios) == 0 && !opts.Quick {
			switch line.DefaultSizes {
			case scenario.QuickSizes:
				sizes = sc.Sizes(true, opts.Large)
				why = append(why, "its quick size")
			case scenario.LargestSizeOnly:
				all := sc.Sizes(false, false)
				sizes = append(all[len(all)-1:], sc.Sizes(false, opts.Large)[len(all):]...)
				why = append(why, "its largest size only")
			}
			if line.DefaultRuns > 0 && opts.Runs == 0 && line.DefaultRuns < n {
				n = line.DefaultRuns
				why = append(why, fmt.Sprintf("%d runs", n))
			}
		}
		var labels []string
		for _, sz := range sizes {
			vs := variants
			if len(opts.Scenarios) == 0 && len(opts.Variants) == 0 && !opts.Quick && line.ThrottledMax > 0 && sz.Replicas > line.ThrottledMax {
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
			p.Items = append(p.Items, runner.Item{Scenario: sc, Size: sz, Variants: vs, Runs: n})
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
	p.Notes = append(p.Notes, missing.Notes()...)
	return p, nil
}
