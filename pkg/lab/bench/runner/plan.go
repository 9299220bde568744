package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack/today"
)

// Calibrate is the name of the bench-only first step: the stack's ceiling.
const Calibrate = "calibrate"

// ListPods is how many running pods the LIST calibration reads.
const ListPods = 1000

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
	// WALPairs is how many alternating pairs price the reader of the
	// write-ahead log in the calibration; -quick leaves them out.
	WALPairs int
	Items    []Item
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

// MissingBinaries tracks the variants left out of a run because their
// controller-manager binary is not in dir, one note per binary.
type MissingBinaries struct {
	dir string
	// originals holds the original v0.4 binaries (Options.originalDir);
	// today make today's (Options.todayDir).
	originals, today string
	variants         map[string][]string
	order            []string
	build            map[string]string
}

// NewMissingBinaries tracks the binaries of opts.
func NewMissingBinaries(opts Options) *MissingBinaries {
	return &MissingBinaries{dir: opts.BinDir, originals: opts.originalDir(), today: opts.todayDir()}
}

// Skip reports whether v's binary is missing, and remembers v if so. An
// original variant needs every binary of make original.
func (m *MissingBinaries) Skip(v scenario.Variant) bool {
	bin := v.Binary()
	if v.Runs(scenario.ExternalCluster) {
		// Someone else's cluster: nothing of ours to build.
		return false
	}
	if v.OnToday() {
		// Today's stack needs every binary of make today, and our
		// manager on it ours too.
		switch {
		case today.Missing(m.today) != "":
			bin = filepath.Join(m.today, today.ControllerManager)
			if v.Ours() {
				bin = filepath.Join(m.today, today.APIServer)
			}
		case v.Ours() && !haveBinary(m.dir, bin):
		default:
			return false
		}
	} else if v.Runs(scenario.Originals) {
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

// Notes says, a line per missing binary, what was left out and how to
// build it.
func (m *MissingBinaries) Notes() []string {
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

// haveBinary reports whether dir holds an executable file name.
func haveBinary(dir, name string) bool {
	info, err := os.Stat(filepath.Join(dir, name))
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// PlanNames lists the scenarios and variants of a plan, in order.
func PlanNames(p *Plan) (scenarios, variants []string) {
	seenS, seenV := map[string]bool{}, map[string]bool{}
	if p.Calibrate {
		scenarios = append(scenarios, Calibrate)
	}
	for _, it := range p.Items {
		if !seenS[it.Scenario.Name] {
			seenS[it.Scenario.Name] = true
			scenarios = append(scenarios, it.Scenario.Name)
		}
		for _, v := range it.Variants {
			if !seenV[v.Name] {
				seenV[v.Name] = true
				variants = append(variants, v.Name)
			}
		}
	}
	return scenarios, variants
}

// Pods is the number of pods an item's cluster holds.
func (it Item) Pods() int {
	if it.Size.Controllers > 0 {
		return it.Size.Controllers * it.Size.Replicas
	}
	return it.Size.Replicas
}
