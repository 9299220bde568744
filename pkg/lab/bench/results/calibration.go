package results

import (
	"fmt"
	"math"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

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
	// WALPairs price the laboratory's reader of the write-ahead log: the
	// bare apiserver at FloorClients without it and with it, in pairs of
	// alternating order inside one apiserver's life (before that page
	// format, each level on fresh storage).
	WALPairs []Pair `json:"walPairs,omitempty"`
	// WALPairsInOneLife says the pairs were measured inside one
	// apiserver's life, the reader stopped for each level without it.
	WALPairsInOneLife bool `json:"walPairsInOneLife,omitempty"`
}

// WALPairs is how many alternating pairs price the reader of the
// write-ahead log: enough that the 4th lowest and the 4th highest of
// them hold the true median with at least WALConfidence
// (stats.MedianInterval), an interval narrower than the range that five
// pairs allowed, which spanned the bar.
const WALPairs = 15

// WALConfidence is the confidence at which the pairs' verdict holds.
const WALConfidence = 0.95

// WALKeepsAtLeast is the share of the bare apiserver's creates the
// reader must keep to cost the stack nothing worth counting.
const WALKeepsAtLeast = 0.95

// Pair is one level measured without one thing and one with it.
type Pair struct {
	Without, With Level
	// WithFirst says the level with it was measured first.
	WithFirst bool `json:"withFirst,omitempty"`
	// ReaderCPUWithout is the reader's process's CPU seconds over the
	// level without it, where it ran and was stopped: none, if the level
	// was measured without it.
	ReaderCPUWithout float64 `json:"readerCPUWithout,omitempty"`
}

// WALKept is the share of the bare apiserver's creates the reader of the
// write-ahead log keeps (with ÷ without, over the pairs): its median, its
// lowest and its highest; ok is false with no pairs.
func (c *Calibration) WALKept() (median, lowest, highest float64, ok bool) {
	kept := c.walKept()
	if len(kept) == 0 {
		return 0, 0, 0, false
	}
	st := Summarize(kept)
	return st.Median, st.Min, st.Max, true
}

// WALKeptInterval is the interval that holds the true median of the
// share the reader keeps with at least WALConfidence where the pairs
// allow it (stats.MedianInterval): from the k-th lowest pair to the k-th
// highest, and its confidence; ok is false with no pairs.
func (c *Calibration) WALKeptInterval() (lo, hi float64, k int, confidence float64, ok bool) {
	kept := c.walKept()
	if len(kept) == 0 {
		return 0, 0, 0, 0, false
	}
	lo, hi, k, confidence = stats.MedianInterval(kept, WALConfidence)
	return lo, hi, k, confidence, true
}

// walKept is each pair's share: with ÷ without.
func (c *Calibration) walKept() []float64 {
	if c == nil {
		return nil
	}
	var kept []float64
	for _, p := range c.WALPairs {
		if p.Without.PerSecond > 0 {
			kept = append(kept, p.With.PerSecond/p.Without.PerSecond)
		}
	}
	return kept
}

// WALReaderStoppedCPU is the most CPU the reader's process used over one
// level without it, where it ran stopped (WALPairsInOneLife).
func (c *Calibration) WALReaderStoppedCPU() float64 {
	most := 0.0
	for _, p := range c.WALPairs {
		most = math.Max(most, p.ReaderCPUWithout)
	}
	return most
}

// WALReader is what the reader of the write-ahead log did over the pairs'
// levels with it: the median of its CPU as a share of one core, the
// latest it held the last pod created after a load ended (seconds), and
// how many of n levels it failed to catch up within ReaderWait; ok is
// false where no level measured it.
func (c *Calibration) WALReader() (core, latest float64, behind, n int, ok bool) {
	if c == nil {
		return 0, 0, 0, 0, false
	}
	var shares []float64
	for _, p := range c.WALPairs {
		r := p.With.Reader
		if r == nil || r.Seconds <= 0 {
			continue
		}
		n++
		shares = append(shares, r.CPU/r.Seconds)
		if !r.CaughtUp {
			behind++
		} else if r.CatchUp > latest {
			latest = r.CatchUp
		}
	}
	if n == 0 {
		return 0, 0, 0, 0, false
	}
	return Summarize(shares).Median, latest, behind, n, true
}

// WALReaderSplit is where the reader of the write-ahead log spent its CPU
// over the pairs' levels with it, as shares of that CPU: reading the log
// (system calls and decoding), applying it, and the rest (serving, the
// garbage collector, the runtime); ok is false where no level measured
// it.
func (c *Calibration) WALReaderSplit() (read, apply, rest float64, ok bool) {
	if c == nil {
		return 0, 0, 0, false
	}
	var cpu, r, a float64
	for _, p := range c.WALPairs {
		if rc := p.With.Reader; rc != nil {
			cpu, r, a = cpu+rc.CPU, r+rc.ReadCPU, a+rc.ApplyCPU
		}
	}
	if cpu <= 0 {
		return 0, 0, 0, false
	}
	return r / cpu, a / cpu, math.Max(0, 1-(r+a)/cpu), true
}

// Level is one target at one concurrency.
type Level struct {
	// Target is TargetEtcd, TargetAPIServer or TargetLearner.
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
	// Reader is what the laboratory's reader of the write-ahead log
	// did over a level measured with it; nil for one without.
	Reader *ReaderCost `json:"reader,omitempty"`
}

// ReaderCost is what the laboratory's reader of the write-ahead log cost
// and how far it kept up, over one calibration level measured with it.
type ReaderCost struct {
	// CPU is the reader process's CPU seconds from the start of the
	// level's load (its warm-up included) until the reader held the last
	// pod created, or until the wait for it ended; Seconds is that span.
	CPU     float64 `json:"cpu"`
	Seconds float64 `json:"seconds"`
	// ReadCPU and ApplyCPU are the parts of CPU its polls spent reading
	// the log (system calls and decoding) and applying it to its store,
	// as its polling thread measured them; the rest is its serving, its
	// garbage collector and the runtime.
	ReadCPU  float64 `json:"readCPU"`
	ApplyCPU float64 `json:"applyCPU"`
	// CaughtUp says the reader held the last pod created within
	// ReaderWait of the load's end, and CatchUp how long after the end
	// that was (0: at once).
	CaughtUp bool    `json:"caughtUp"`
	CatchUp  float64 `json:"catchUp"`
}

// ReaderWait is how long a calibration level waits after its load for the
// reader of the write-ahead log to hold the last pod created.
const ReaderWait = 10 * time.Second

// The calibration's targets (Level.Target).
const (
	// TargetEtcd is raw go-etcd creates on an etcd member of its own.
	TargetEtcd = "etcd"
	// TargetAPIServer is pod POSTs to the bare apiserver.
	TargetAPIServer = "apiserver"
	// TargetLearner is pod POSTs to the bare apiserver with the
	// laboratory's etcd learner joined to its cluster, as every
	// scenario's is, and nothing reading it: the learner's price.
	TargetLearner = "apiserver+learner"
)

// LearnerPrice is the share of the bare apiserver's creates at
// FloorClients that the laboratory's learner takes (1 − with ÷ without),
// with both levels, when both were measured.
func (c *Calibration) LearnerPrice() (price float64, with, without Level, ok bool) {
	with, ok1 := c.Level(TargetLearner, FloorClients)
	without, ok2 := c.Level(TargetAPIServer, FloorClients)
	if !ok1 || !ok2 || without.PerSecond <= 0 {
		return 0, Level{}, Level{}, false
	}
	return 1 - with.PerSecond/without.PerSecond, with, without, true
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

// String gives a level in one line for progress output.
func (l Level) String() string {
	s := fmt.Sprintf("%-17s %3d clients: %7.0f writes/s, p50 %6.1f ms, p90 %6.1f ms", l.Target, l.Clients, l.PerSecond, l.P50Ms, l.P90Ms)
	if l.Errors > 0 {
		s += fmt.Sprintf(", %d errors (%s)", l.Errors, l.FirstError)
	}
	if r := l.Reader; r != nil {
		s += fmt.Sprintf("; the reader of the log used %.2f CPU s in %.1f s (%.0f %% of a core)", r.CPU, r.Seconds, 100*r.CPU/math.Max(r.Seconds, 1e-9))
		if r.CaughtUp {
			s += fmt.Sprintf(" and held the last pod %.0f ms after the load", 1000*r.CatchUp)
		} else {
			s += fmt.Sprintf(" and did not hold the last pod %s after the load", ReaderWait)
		}
	}
	return s
}

// Read paths of the apiserver's pods, as its -read_pod_status flag picks
// them.
const (
	ReadV04    = "v0.4"
	ReadStored = "stored"
)

// ListCost is what one LIST of every pod cost the apiserver on a cluster of
// Pods running pods, read one way.
type ListCost struct {
	// ReadPath is ReadV04 (status computed per pod, one minion LIST per
	// bound pod) or ReadStored (pods as stored).
	ReadPath string  `json:"readPath"`
	Pods     int     `json:"pods"`
	Lists    int     `json:"lists"`
	P50Ms    float64 `json:"p50Ms"`
	MaxMs    float64 `json:"maxMs"`
	// Bytes is the size of one answer.
	Bytes int `json:"bytes"`
	// Per LIST, from the apiserver's /metrics before and after: its CPU
	// time, the bytes and objects it allocated, and the requests it sent
	// to itself.
	CPUMs            float64 `json:"cpuMs"`
	AllocBytes       float64 `json:"allocBytes"`
	Allocs           float64 `json:"allocs"`
	LoopbackRequests float64 `json:"loopbackRequests"`
}

// String gives a LIST cost in one line for progress output.
func (l ListCost) String() string {
	return fmt.Sprintf("LIST of %d pods read %-6s: p50 %6.1f ms over %d LISTs, %.0f KB, apiserver CPU %.1f ms, %.1f MB and %.0f objects allocated, %.0f loopback requests",
		l.Pods, l.ReadPath, l.P50Ms, l.Lists, float64(l.Bytes)/1024, l.CPUMs, l.AllocBytes/1e6, l.Allocs, l.LoopbackRequests)
}

// ReferenceScaleUp is the benchmark standing in for a controller: it
// creates N pods from FloorClients concurrent clients on scale-up's own
// cluster, with hollow nodes but no controller-manager, and times them as
// the scenario times a manager. It has no watch to follow, no batches and
// no limit, and the hollow nodes' binds and status writes compete with its
// creates as they do with a manager's, so it is the pace a controller of
// FloorClients workers could reach on this stack (a manager with more
// requests in flight, as legacy's N, can beat it).
type ReferenceScaleUp struct {
	Replicas int `json:"replicas"`
	// CreateSeconds is when the last create returned, the median over
	// the runs.
	CreateSeconds float64 `json:"createSeconds"`
	// RunningSeconds is when the pod watch first saw N pods running, the
	// median over the runs.
	RunningSeconds float64 `json:"runningSeconds"`
	// Create and Running hold every run's figures.
	Create  *Stats `json:"create,omitempty"`
	Running *Stats `json:"running,omitempty"`
}
