package results

import (
	"encoding/json"
	"io"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// RunRecord is one run of one scenario at one size with one variant.
type RunRecord struct {
	Scenario string
	Size     scenario.Size
	// Variant is the variant that ran, as it was resolved before the
	// run: nothing after the run parses its name again.
	Variant scenario.Variant
	// Index counts the runs of this variant from 0.
	Index int
	// Outcome is nil when the run failed.
	Outcome *scenario.Outcome
	Err     string
	// Dir holds the run's logs and samples.csv, relative to the report.
	Dir     string
	Seconds float64
	// TimedOut says the run was stopped at its limit.
	TimedOut bool
	// RunningAtLimit and BoundAtLimit, for a run stopped at its limit,
	// are how many pods were running, and bound to a node, when it was
	// stopped, as the laboratory last read.
	RunningAtLimit float64 `json:",omitempty"`
	BoundAtLimit   float64 `json:",omitempty"`
	// Lab is the laboratory's share of the run, failed or not (nil when
	// nothing was sampled).
	Lab *LabShare
	// Profiles summarize the CPU profiles of the run's measured span.
	Profiles []ProfileSummary
}

// Summary is everything a benchmark measured, as results.json holds it.
type Summary struct {
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished"`
	Seconds     float64   `json:"seconds"`
	Interrupted bool      `json:"interrupted"`
	// Commit is the source the binaries were built from: Options.Commit,
	// or rcbench's build information when that is empty.
	Commit  string  `json:"commit,omitempty"`
	Machine Machine `json:"machine"`
	Options struct {
		Scenarios []string `json:"scenarios"`
		Variants  []string `json:"variants"`
		Runs      int      `json:"runs"`
		Quick     bool     `json:"quick"`
		Sweep     bool     `json:"sweep,omitempty"`
		Large     bool     `json:"large"`
		Seed      int64    `json:"seed"`
	} `json:"options"`
	// Notes say what was left out and why.
	Notes []string `json:"notes"`
	// Choices say where the default selection took smaller sizes or
	// fewer runs than the scenarios' standard, to keep to its budget.
	Choices     []string          `json:"choices"`
	Calibration *Calibration      `json:"calibration"`
	Scenarios   []ScenarioSummary `json:"scenarios"`
	Findings    []Finding         `json:"findings"`
	Failures    []Failure         `json:"failures"`
	// Skipped are the runs of a sweep not run, and why.
	Skipped []Skip `json:"skipped,omitempty"`
	// Lab is the laboratory's share of every run.
	Lab []LabRun `json:"laboratory,omitempty"`
	// Profiles summarize every run's CPU profiles (-profile).
	Profiles []ProfileSummary `json:"profiles,omitempty"`
}

// Skip is a sweep's run left out: the design broke at a smaller size, or
// the sweep's budget ran out.
type Skip struct {
	Scenario string `json:"scenario"`
	Label    string `json:"label"`
	Variant  string `json:"variant"`
	Why      string `json:"why"`
}

// Machine describes where the benchmark ran; the load averages say how
// quiet the machine was.
type Machine struct {
	CPUs       int        `json:"cpus"`
	GoVersion  string     `json:"goVersion"`
	OS         string     `json:"os"`
	Arch       string     `json:"arch"`
	LoadBefore [3]float64 `json:"loadBefore"`
	LoadAfter  [3]float64 `json:"loadAfter"`
	// FileLimit is the open-file limit the stack's processes start with
	// (0: unknown): the 2014 manager holds one socket per pod it creates.
	FileLimit uint64 `json:"fileLimit,omitempty"`
}

// ScenarioSummary holds the figures of one scenario at every size run.
type ScenarioSummary struct {
	Name       string        `json:"name"`
	Title      string        `json:"title"`
	Reproduces string        `json:"reproduces"`
	Explain    string        `json:"explain"`
	Sizes      []SizeSummary `json:"sizes"`
}

// SizeSummary holds one size's figures per variant.
type SizeSummary struct {
	Label         string  `json:"label"`
	Replicas      int     `json:"replicas"`
	Controllers   int     `json:"controllers,omitempty"`
	PeriodSeconds float64 `json:"periodSeconds"`
	WindowSeconds float64 `json:"windowSeconds,omitempty"`
	Rate          float64 `json:"rate,omitempty"`
	// EtcdMembers is the size of the external etcd cluster the size ran
	// against (0: the apiserver's embedded member).
	EtcdMembers int `json:"etcdMembers,omitempty"`
	// LimitSeconds is how long a run of the size had to converge before
	// it was stopped and counted as failed (0: no limit, or a summary
	// from before summaries kept it). Over the size's pods it is a
	// floor of throughput: a run that brings up fewer pods a second than
	// pods ÷ limit fails.
	LimitSeconds float64          `json:"limitSeconds,omitempty"`
	Variants     []VariantSummary `json:"variants"`
}

// Floor is the pods a second below which a run of the size cannot have
// converged within its limit (pods ÷ limit); 0 without a limit.
func (s SizeSummary) Floor() float64 {
	if s.LimitSeconds <= 0 {
		return 0
	}
	return float64(s.Pods()) / s.LimitSeconds
}

// Pods is the size's pod count: its replicas, times its controllers
// where it has several.
func (s SizeSummary) Pods() int {
	if s.Controllers > 0 {
		return s.Controllers * s.Replicas
	}
	return s.Replicas
}

// VariantSummary holds one variant's figures over its runs.
type VariantSummary struct {
	Variant string `json:"variant"`
	// Described is the variant as it ran, resolved before its runs, so
	// that pages and findings read what it was instead of parsing its
	// name (Of reads a summary made without it).
	Described scenario.Variant `json:"described"`
	Runs      int              `json:"runs"`
	Failed    int              `json:"failed"`
	// FailedLab counts the failed runs in which the laboratory was
	// saturated: failures that are not the design's.
	FailedLab int `json:"failedLaboratory,omitempty"`
	// RunSeconds is the wall-clock time of a run, cluster start to stop.
	RunSeconds Stats    `json:"runSeconds"`
	Figures    []Figure `json:"figures"`
	// MedianRun is the index of the run drawn in the time charts.
	MedianRun int `json:"medianRun"`
}

// Figure is one result over the runs of a variant.
type Figure struct {
	Name string `json:"name"`
	// Process names whose figure it is (apiserver, controller-manager,
	// hollow-node, rcbench); empty for the cluster as a whole, seen
	// through the benchmark's pod watch.
	Process       string `json:"process,omitempty"`
	Unit          string `json:"unit"`
	LowerIsBetter bool   `json:"lowerIsBetter"`
	// Derived marks figures the benchmark computes from the samples,
	// beyond those the scenario defines.
	Derived bool `json:"derived,omitempty"`
	Stats
	Noisy bool `json:"noisy"`
	// Explanation says why a noisy figure varies.
	Explanation string `json:"explanation,omitempty"`
}

// Failure is a run that did not finish.
type Failure struct {
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Variant  string `json:"variant"`
	Run      int    `json:"run"`
	Error    string `json:"error"`
	// Lab says why the laboratory was saturated in the run, if it was:
	// the failure is then not the design's.
	Lab string `json:"laboratory,omitempty"`
	// TimedOut says the run was stopped at its limit; RunningAtLimit and
	// BoundAtLimit how many pods ran, and were bound, by then.
	TimedOut       bool    `json:"timedOut,omitempty"`
	RunningAtLimit float64 `json:"runningAtLimit,omitempty"`
	BoundAtLimit   float64 `json:"boundAtLimit,omitempty"`
}

// Figure returns the named figure of a variant, if it has it.
func (v *VariantSummary) Figure(name string) (Figure, bool) {
	for _, f := range v.Figures {
		if f.Name == name {
			return f, true
		}
	}
	return Figure{}, false
}

// Variant returns the summary of the named variant at this size.
func (s *SizeSummary) Variant(name string) (*VariantSummary, bool) {
	for i := range s.Variants {
		if s.Variants[i].Variant == name {
			return &s.Variants[i], true
		}
	}
	return nil, false
}

// Scenario returns the summary of the named scenario.
func (s *Summary) Scenario(name string) (*ScenarioSummary, bool) {
	for i := range s.Scenarios {
		if s.Scenarios[i].Name == name {
			return &s.Scenarios[i], true
		}
	}
	return nil, false
}

// WriteJSON writes the summary, indented.
func (s *Summary) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// Of is the variant the summary's runs ran: Described, as a run keeps
// it, or for a summary made without it (a page published before
// summaries kept their variant, a test's figures) DescribedVariant.
func (vs VariantSummary) Of() scenario.Variant {
	if vs.Described.Name != "" {
		return vs.Described
	}
	return DescribedVariant(vs.Variant)
}

// DescribedVariant is the variant of a summary written before summaries
// kept it: the variant of that name, or one of its own, held to a design
// of its name, for a name no variant has now (the history's switched-off
// managers, such as without-expectations, which never had a name of
// scenario.VariantByName's).
func DescribedVariant(name string) scenario.Variant {
	if v, err := scenario.VariantByName(name); err == nil {
		return v
	}
	return scenario.Variant{Name: name, Design: name}
}

// VariantsRan lists the variants the summary's runs ran, as each was
// described when it ran, in the order they first appear.
func (s *Summary) VariantsRan() []scenario.Variant {
	var out []scenario.Variant
	seen := map[string]bool{}
	for _, sc := range s.Scenarios {
		for _, sz := range sc.Sizes {
			for _, v := range sz.Variants {
				if !seen[v.Variant] {
					seen[v.Variant] = true
					out = append(out, v.Of())
				}
			}
		}
	}
	return out
}
