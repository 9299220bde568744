package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// CalibrationClients are the concurrency levels of etcd's own published
// v2 benchmarks, which the calibration mirrors.
var CalibrationClients = []int{1, 64, 256}

// FloorClients is the level whose pod-create rate sets the create floor.
const FloorClients = 64

// Calibration is the stack's ceiling, measured before any scenario.
type Calibration struct {
	// Seconds each level was measured for, after a warm-up.
	Seconds float64 `json:"secondsPerLevel"`
	// Setup says what was measured, and how.
	EtcdSetup      string  `json:"etcdSetup"`
	APIServerSetup string  `json:"apiserverSetup"`
	Levels         []Level `json:"levels"`
	// CreateRate is the apiserver's pod POSTs per second at FloorClients:
	// no design can create N pods faster than N / CreateRate.
	CreateRate float64 `json:"createRate"`
	// Reference is the benchmark's own scale-up without a manager, at the
	// largest scale-up size of the plan (nil when scale-up is not run).
	Reference      *ReferenceScaleUp `json:"reference,omitempty"`
	ReferenceSetup string            `json:"referenceSetup,omitempty"`
	// ListCosts are one LIST of ListPods running pods, read as v0.4 read
	// them and as stored.
	ListCosts []ListCost `json:"listCosts,omitempty"`
	ListSetup string     `json:"listSetup,omitempty"`
}

// Level is one target at one concurrency.
type Level struct {
	// Target is "etcd" (raw go-etcd creates) or "apiserver" (pod POSTs).
	Target    string  `json:"target"`
	Clients   int     `json:"clients"`
	Requests  int     `json:"requests"`
	Errors    int     `json:"errors"`
	Seconds   float64 `json:"seconds"`
	PerSecond float64 `json:"perSecond"`
	P50Ms     float64 `json:"p50Ms"`
	P90Ms     float64 `json:"p90Ms"`
	P99Ms     float64 `json:"p99Ms"`
	// FirstError is the first failure, if any.
	FirstError string `json:"firstError,omitempty"`
}

// Level returns the measurement of target at clients, if there is one.
func (c *Calibration) Level(target string, clients int) (Level, bool) {
	if c == nil {
		return Level{}, false
	}
	for _, l := range c.Levels {
		if l.Target == target && l.Clients == clients {
			return l, true
		}
	}
	return Level{}, false
}

// Floor returns the calibrated create floor for n pods in seconds, or 0
// when there is no calibration.
func (c *Calibration) Floor(n int) float64 {
	if c == nil || c.CreateRate <= 0 {
		return 0
	}
	return float64(n) / c.CreateRate
}

// load runs op from clients goroutines at once: for warmup unmeasured, so
// that connections are open and caches warm, then for d. Only requests
// that begin and end inside the measured window count, so the rate is
// completed requests per second of steady load.
func load(ctx context.Context, target string, clients int, warmup, d time.Duration, op func(ctx context.Context, worker, i int) error) Level {
	start := time.Now()
	from, to := start.Add(warmup), start.Add(warmup+d)
	ctx, cancel := context.WithDeadline(ctx, to)
	defer cancel()

	var mu sync.Mutex
	var latencies []float64
	errs := 0
	firstErr := ""
	var wg sync.WaitGroup
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; ctx.Err() == nil; i++ {
				began := time.Now()
				err := op(ctx, w, i)
				ended := time.Now()
				if began.Before(from) || ended.After(to) {
					continue
				}
				mu.Lock()
				if err != nil {
					errs++
					if firstErr == "" {
						firstErr = err.Error()
					}
				} else {
					latencies = append(latencies, ended.Sub(began).Seconds()*1000)
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	sort.Float64s(latencies)
	l := Level{
		Target:     target,
		Clients:    clients,
		Requests:   len(latencies),
		Errors:     errs,
		Seconds:    d.Seconds(),
		PerSecond:  float64(len(latencies)) / d.Seconds(),
		P50Ms:      percentileOf(latencies, 50),
		P90Ms:      percentileOf(latencies, 90),
		P99Ms:      percentileOf(latencies, 99),
		FirstError: firstErr,
	}
	return l
}

// String gives a level in one line for progress output.
func (l Level) String() string {
	s := fmt.Sprintf("%-9s %3d clients: %7.0f writes/s, p50 %6.1f ms, p90 %6.1f ms", l.Target, l.Clients, l.PerSecond, l.P50Ms, l.P90Ms)
	if l.Errors > 0 {
		s += fmt.Sprintf(", %d errors (%s)", l.Errors, l.FirstError)
	}
	return s
}

// calibrationWarmup is the unmeasured start of each level.
const calibrationWarmup = 500 * time.Millisecond

// calibrateStack measures raw etcd and the bare apiserver at each level,
// each on fresh storage under dir.
func (r *Runner) calibrateStack(ctx context.Context, dir string, p *Plan) (*Calibration, error) {
	clients, seconds := p.CalibrationClients, p.CalibrationSeconds
	d := time.Duration(seconds * float64(time.Second))
	cal := &Calibration{Seconds: seconds, EtcdSetup: etcdSetup, APIServerSetup: apiserverSetup}
	for _, n := range clients {
		if ctx.Err() != nil {
			return cal, ctx.Err()
		}
		l, err := calibrateEtcd(ctx, filepath.Join(dir, fmt.Sprintf("etcd-%d", n)), n, calibrationWarmup, d)
		if err != nil {
			return cal, err
		}
		r.say("  %s", l)
		cal.Levels = append(cal.Levels, l)
	}
	for _, n := range clients {
		if ctx.Err() != nil {
			return cal, ctx.Err()
		}
		l, err := calibrateAPIServer(ctx, r.Opts.BinDir, filepath.Join(dir, fmt.Sprintf("apiserver-%d", n)), n, calibrationWarmup, d)
		if err != nil {
			return cal, err
		}
		r.say("  %s", l)
		cal.Levels = append(cal.Levels, l)
		if n == FloorClients {
			cal.CreateRate = l.PerSecond
		}
	}
	if p.ReferenceReplicas > 0 && ctx.Err() == nil {
		runs := p.RunsEach
		if runs < 1 {
			runs = 1
		}
		r.settle(p)
		ref, err := referenceRuns(ctx, r.Opts.BinDir, filepath.Join(dir, "reference"), p.ReferenceReplicas, runs, r.Opts.Seed)
		if err != nil {
			return cal, fmt.Errorf("reference scale-up: %v", err)
		}
		r.say("  reference scale-up of %d pods, no manager, %d clients, median of %d: all created after %.2f s, all running after %.2f s",
			ref.Replicas, FloorClients, runs, ref.CreateSeconds, ref.RunningSeconds)
		cal.Reference, cal.ReferenceSetup = &ref, referenceSetup
	}
	for _, path := range []string{ReadV04, ReadStored} {
		if !p.ListCosts {
			break
		}
		if ctx.Err() != nil {
			return cal, ctx.Err()
		}
		lc, err := calibrateList(ctx, r.Opts.BinDir, filepath.Join(dir, "list-"+path), path, r.Opts.Seed)
		if err != nil {
			return cal, fmt.Errorf("LIST of %d pods read %s: %v", ListPods, path, err)
		}
		r.say("  %s", lc)
		cal.ListCosts, cal.ListSetup = append(cal.ListCosts, lc), listSetup
	}
	return cal, nil
}
