package runner

import (
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// Options configures one benchmark.
type Options struct {
	// Scenarios to run, by name, "calibrate" included; empty means the
	// default selection (or the quick one).
	Scenarios []string
	// Variants to compare, by name; empty means each scenario's default.
	Variants []string
	// Runs per scenario, size and variant; 0 means 3, or 1 with Quick.
	Runs int
	// Quick shrinks sizes and the selection to about two minutes.
	Quick bool
	// Large adds the largest sizes (N=10 000).
	Large bool
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
	// LabReader is how the laboratory reads pods in every run: empty
	// for the default (stack.DefaultLabReader), or one of
	// stack.LabReaders, to compare the readers on the same runs. With
	// a learner named explicitly, the
	// calibration's bare apiserver also runs with one, which it
	// otherwise has not.
	LabReader string
	// TodayDir holds make today's binaries for the variants on today's
	// stack; empty means $KUBE_REWIND_TODAY, else the one make today
	// fills beside BinDir (_output/today).
	TodayDir string
	// Kubeconfig names the cluster the variant cluster runs on, and
	// Namespace the namespace of its own it keeps to there (empty:
	// scenario.DefaultNamespace).
	Kubeconfig, Namespace string
}

// DefaultSeed is the hollow nodes' seed unless Options.Seed says another.
const DefaultSeed = 2014

// originalDir is where the original v0.4 binaries of the variants
// legacy-original and stack-original are looked for: where make original
// puts them unless OriginalDir says another place.
func (o Options) originalDir() string {
	if o.OriginalDir != "" {
		return o.OriginalDir
	}
	return original.DirBeside(o.BinDir)
}

// todayDir is where today's binaries are looked for (Options.TodayDir).
func (o Options) todayDir() string {
	if o.TodayDir != "" {
		return o.TodayDir
	}
	return today.DirBeside(o.BinDir)
}
