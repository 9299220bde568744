package scenario

import (
	"context"
	"fmt"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
)

// Outcome is what one run of a scenario produced.
type Outcome struct {
	Scenario string
	Variant  string
	Size     Size
	Results  []Result
	Rec      *sampler.Recorder
	// Marks are the named moments of the run, in seconds on Rec's clock.
	Marks    map[string]float64
	Duration time.Duration
	// Profiles are the CPU profiles taken with Options.Profile.
	Profiles []Profile
}

// Run starts a cluster for sc, runs every step, computes the results and
// stops the cluster. When a step fails it returns the error with an
// outcome that has no results but holds what was sampled until then, so
// that a failed run can still say what the laboratory's processes did.
func Run(ctx context.Context, sc *Scenario, v Variant, sz Size, opts Options) (*Outcome, error) {
	began := time.Now()
	e, err := Start(sc, v, sz, opts)
	if err != nil {
		return nil, fmt.Errorf("%s/%s: starting the cluster: %v", sc.Name, v.Name, err)
	}
	defer e.Close()
	outcome := func(results []Result) *Outcome {
		return &Outcome{
			Scenario: sc.Name,
			Variant:  v.Name,
			Size:     sz,
			Results:  results,
			Rec:      e.Sampler.Rec,
			Marks:    e.marksSeconds(),
			Duration: time.Since(began),
			Profiles: e.profiles,
		}
	}
	for i, step := range sc.Script.Steps(sz) {
		e.Say("%s/%s step %d: %s", sc.Name, v.Name, i+1, step.Title)
		if err := step.Run(ctx, e); err != nil {
			e.StopSampling()
			return outcome(nil), fmt.Errorf("%s/%s step %d (%s): %v", sc.Name, v.Name, i+1, step.Title, err)
		}
	}
	// A step can finish between two scrapes (the modern manager deletes 30
	// pods in about 0.1 s); take the last samples before reading results.
	e.StopSampling()
	return outcome(sc.Script.Results(e)), nil
}

func (e *Env) marksSeconds() map[string]float64 {
	e.mu.Lock()
	names := make([]string, 0, len(e.marks))
	for n := range e.marks {
		names = append(names, n)
	}
	e.mu.Unlock()
	out := map[string]float64{}
	for _, n := range names {
		out[n] = e.At(n)
	}
	return out
}
