package scenario

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
)

// Options says where a cluster's binaries and files go.
type Options struct {
	BinDir string
	// Dir is the cluster's own directory: etcd data and logs.
	Dir string
	// Intervals of the sampler; zero means sampler.DefaultIntervals.
	Intervals sampler.Intervals
	// Say receives progress lines; nil discards them.
	Say func(format string, args ...interface{})
	// Seed, when not zero, fixes the hollow nodes' random choices (which
	// node a pod lands on, which pod churn kills), so that repeated runs
	// make the same ones.
	Seed int64
	// ReadMember, with EtcdServers, is the member whose write-ahead log
	// the laboratory reads (stack.Config's ReadMember).
	ReadMember stack.ReadMember
	// EtcdServers, when set, point the apiserver at an external etcd
	// cluster instead of its embedded member.
	EtcdServers []string
	// OriginalDir holds the original v0.4 binaries, for the variants
	// legacy-original and stack-original (make original: _output/v0.4).
	OriginalDir string
	// TodayDir holds today's binaries, for the variants on today's stack
	// (make today: _output/today); empty means today.Dir().
	TodayDir string
	// Profile takes CPU profiles of the apiserver and the hollow nodes for
	// the whole run, into Dir/profiles (see profile.go).
	Profile bool
	// LabReader, when set, is how the laboratory reads pods
	// (stack.Config.LabReader).
	LabReader string
	// Kubeconfig names the cluster of the variant cluster (External), and
	// Namespace the namespace of its own the run keeps to there
	// (DefaultNamespace when empty).
	Kubeconfig, Namespace string
}

// intervals are the sampler's intervals for sc: the options', else the
// scenario's own, else sampler.DefaultIntervals.
func (opts Options) intervals(sc *Scenario) sampler.Intervals {
	switch {
	case opts.Intervals != (sampler.Intervals{}):
		return opts.Intervals
	case sc.Intervals != (sampler.Intervals{}):
		return sc.Intervals
	}
	return sampler.DefaultIntervals
}

// say is where progress lines go: Options.Say, or nowhere.
func (opts Options) say() func(format string, args ...interface{}) {
	if opts.Say != nil {
		return opts.Say
	}
	return func(string, ...interface{}) {}
}

// Start brings up the cluster sc needs for variant v at size sz and starts
// sampling it. Close stops both.
func Start(sc *Scenario, v Variant, sz Size, opts Options) (*Env, error) {
	// A variant that names its reader reads that way, whatever the
	// benchmark's.
	opts.LabReader = cmp.Or(v.LabReader, opts.LabReader)
	return v.launcher().start(sc, v, sz, opts)
}

// startOurs starts our stack for sc at size sz with v's manager, or the
// original v0.4 binaries v names (Variant.Original).
func startOurs(sc *Scenario, v Variant, sz Size, opts Options) (*Env, error) {
	cfg := sc.Cluster
	if sz.PodsFirst {
		// Started once the pods run.
		cfg.ControllerManagers = 0
	}
	if sz.EtcdMembers > 0 {
		cfg.EtcdMembers = sz.EtcdMembers
	}
	cfg.BinDir = opts.BinDir
	cfg.Dir = opts.Dir
	cfg.Design = v.Design
	cfg.ManagerBinary = v.Manager
	cfg.Original, cfg.OriginalDir = v.Original, opts.OriginalDir
	// v0.4's apiserver has no metrics: without the meter nothing counts
	// its requests.
	cfg.NoMeter = v.OwnV04APIServer() && v.Unmetered
	if len(opts.EtcdServers) > 0 {
		cfg.EtcdServers, cfg.ReadMember = opts.EtcdServers, opts.ReadMember
	}
	if opts.LabReader != "" {
		cfg.LabReader = opts.LabReader
	}
	cfg.ControllerManagerArgs = append(append([]string{}, cfg.ControllerManagerArgs...), v.ManagerArgs...)
	if opts.Seed != 0 {
		cfg.HollowNodeArgs = append(append([]string{}, cfg.HollowNodeArgs...), fmt.Sprintf("-seed=%d", opts.Seed))
	}
	if cfg.SyncPeriod == 0 {
		cfg.SyncPeriod = sz.Period
	}
	if v.Parity {
		// The fair fight's work (parity.go): as many nodes as today's
		// side, and its kubelets' writers and delay. Later flags win.
		cfg.Nodes = v.parityNodes(sc, sz)
		writers := ParityStatusWriters
		if v.Ablated(AblateSerialBinds) {
			// v0.4's kubelets write nothing when they start a pod
			// (PodStatusOnRead): one worker binds one pod at a time.
			writers = 1
		}
		cfg.HollowNodeArgs = append(append([]string{}, cfg.HollowNodeArgs...),
			fmt.Sprintf("-workers=%d", writers), "-start_delay="+ParityStartDelay.String())
	}
	var profiling string
	var st *stack.Stack
	var err error
	// v0.4's own apiserver serves its profiles on the same flag as ours,
	// which make original adds to it (original.ProfilesFix).
	profileAPIServer := opts.Profile
	if profileAPIServer {
		var port int
		st, port, err = stack.StartWithPort(cfg, profilingArgs)
		profiling = fmt.Sprintf("http://127.0.0.1:%d", port)
	} else {
		st, err = stack.Start(cfg)
	}
	if err != nil {
		return nil, err
	}
	say := opts.say()
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "scenario"})
	if err != nil {
		st.Stop()
		return nil, err
	}
	iv := opts.intervals(sc)
	e := &Env{Variant: v, Size: sz, Cluster: ourCluster{st, c}, Stack: st, Client: c, Say: say, marks: map[string]time.Time{}}
	e.Sampler = sampler.New(c, st, labels.Everything(), iv)
	if err := e.Sampler.Start(); err != nil {
		st.Stop()
		return nil, err
	}
	if opts.Profile {
		targets := map[string]string{}
		if profileAPIServer {
			targets[sampler.ProcessAPIServer] = profiling
		}
		if st.HollowURL != "" {
			targets[sampler.ProcessHollowNode] = st.HollowURL
		}
		if url := st.WALReaderURL(); url != "" {
			targets[sampler.ProcessLabReader] = url
		}
		if e.profiler, err = startProfiler(filepath.Join(opts.Dir, "profiles"), e.Sampler.Rec.Start(), targets); err != nil {
			e.Close()
			return nil, err
		}
	}
	e.Mark("start")
	return e, nil
}

// Outcome is what one run of a scenario produced.
type Outcome struct {
	Scenario string
	// Variant is the variant that ran, as it was resolved.
	Variant Variant
	Size    Size
	Results []Result
	Rec     *sampler.Recorder
	// Marks are the named moments of the run, in seconds on Rec's clock.
	Marks    map[string]float64
	Duration time.Duration
	// Profiles are the CPU profiles taken with Options.Profile.
	Profiles []Profile
	// ReaderOf says whose log the laboratory's reader of the write-ahead
	// log read, where one did: "" otherwise.
	ReaderOf string
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
			Variant:  v,
			Size:     sz,
			Results:  results,
			Rec:      e.Sampler.Rec,
			Marks:    e.marksSeconds(),
			Duration: time.Since(began),
			Profiles: e.profiles,
			ReaderOf: readerOf(e.Cluster),
		}
	}
	before, counted := e.readOwnCounts(ctx)
	for i, step := range sc.Script.Steps(sz) {
		e.Say("%s/%s step %d: %s", sc.Name, v.Name, i+1, step.Title)
		if err := step.Run(ctx, e); err != nil {
			e.StopSampling()
			if exited := stack.ExitedByItself(e.Cluster.Processes()); exited != "" {
				err = fmt.Errorf("%v; %s", err, exited)
			}
			return outcome(nil), fmt.Errorf("%s/%s step %d (%s): %v", sc.Name, v.Name, i+1, step.Title, err)
		}
	}
	// A step can finish between two scrapes (the modern manager deletes 30
	// pods in a fraction of a second); take the last samples before
	// reading results.
	e.StopSampling()
	results := e.Results(sc)
	if after, ok := e.readOwnCounts(ctx); ok && counted {
		// What the run cost the stack by its own counters (owncounts.go).
		results = append(results, countsResults(before, after, podsOf(sz), results)...)
	}
	return outcome(results), nil
}

// Results are sc's figures of the run in e, less those its cluster does
// not let the laboratory measure (an external cluster's managers, or
// what the meter counts in a run without it).
func (e *Env) Results(sc *Scenario) []Result {
	return e.forUnmetered(e.forExternal(sc.Script.Results(e)))
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

// readerOf says whose log the cluster's reader of the write-ahead log
// reads, where the cluster says.
func readerOf(c Cluster) string {
	if r, ok := c.(interface{ WALReaderOf() string }); ok {
		return r.WALReaderOf()
	}
	return ""
}
