package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Env is one running cluster of one variant, as a scenario sees it.
type Env struct {
	Variant Variant
	Size    Size
	Stack   *stack.Stack
	Client  client.Interface
	Sampler *sampler.Sampler
	// Say receives progress lines meant for a log, not the audience.
	Say func(format string, args ...interface{})

	mu       sync.Mutex
	marks    map[string]time.Time
	values   map[string]float64
	stopOnce sync.Once
	profiler *profiler
	profiles []Profile
}

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
	// EtcdServers, when set, point the apiserver at an external etcd
	// cluster instead of its embedded member.
	EtcdServers []string
	// OriginalDir holds the original v0.4 binaries, for the variants
	// legacy-original and stack-original (make original: _output/v0.4).
	OriginalDir string
	// Profile takes CPU profiles of the apiserver and the hollow nodes for
	// the whole run, into Dir/profiles (see profile.go).
	Profile bool
}

// Start brings up the cluster sc needs for variant v at size sz and starts
// sampling it. Close stops both.
func Start(sc *Scenario, v Variant, sz Size, opts Options) (*Env, error) {
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
	if len(opts.EtcdServers) > 0 {
		cfg.EtcdServers = opts.EtcdServers
	}
	cfg.ControllerManagerArgs = append(append([]string{}, cfg.ControllerManagerArgs...), v.ManagerArgs...)
	if opts.Seed != 0 {
		cfg.HollowNodeArgs = append(append([]string{}, cfg.HollowNodeArgs...), fmt.Sprintf("-seed=%d", opts.Seed))
	}
	if cfg.SyncPeriod == 0 {
		cfg.SyncPeriod = sz.Period
	}
	var profiling string
	if opts.Profile {
		args, url, err := profilingArgs()
		if err != nil {
			return nil, err
		}
		cfg.APIServerArgs = append(append([]string{}, cfg.APIServerArgs...), args...)
		profiling = url
	}
	st, err := stack.Start(cfg)
	if err != nil {
		return nil, err
	}
	say := opts.Say
	if say == nil {
		say = func(string, ...interface{}) {}
	}
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "scenario"})
	if err != nil {
		st.Stop()
		return nil, err
	}
	iv := opts.Intervals
	if iv == (sampler.Intervals{}) {
		iv = sc.Intervals
	}
	if iv == (sampler.Intervals{}) {
		iv = sampler.DefaultIntervals
	}
	e := &Env{Variant: v, Size: sz, Stack: st, Client: c, Say: say, marks: map[string]time.Time{}}
	e.Sampler = sampler.New(c, st, labels.Everything(), iv)
	if err := e.Sampler.Start(); err != nil {
		st.Stop()
		return nil, err
	}
	if opts.Profile {
		targets := map[string]string{sampler.ProcessAPIServer: profiling}
		if st.HollowURL != "" {
			targets[sampler.ProcessHollowNode] = st.HollowURL
		}
		if e.profiler, err = startProfiler(filepath.Join(opts.Dir, "profiles"), e.Sampler.Rec.Start(), targets); err != nil {
			e.Close()
			return nil, err
		}
	}
	e.Mark("start")
	return e, nil
}

// Close stops sampling and the cluster.
func (e *Env) Close() {
	e.StopSampling()
	e.Stack.Stop()
}

// StopSampling takes a last sample of every source and stops the sampler;
// later calls do nothing. Results read after it include everything that
// happened up to the last step, however soon after the last scrape it
// happened.
func (e *Env) StopSampling() {
	e.stopOnce.Do(func() {
		e.Sampler.Stop()
		if e.profiler != nil {
			e.profiles = e.profiler.stop()
		}
	})
}

// Mark samples every source, then records the current time under name.
// The fresh sample makes a figure counted between two marks count exactly
// what happened between them: with the last periodic sample instead, a
// slowly sampled scenario (idle reads the apiserver once a second) could
// count a whole tick of requests from before its window.
func (e *Env) Mark(name string) {
	e.Sampler.SampleNow()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.marks[name] = time.Now()
}

// setFigures keeps figures a step computed, for the scenario's results.
func (e *Env) setFigures(values map[string]float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.values == nil {
		e.values = map[string]float64{}
	}
	for k, v := range values {
		e.values[k] = v
	}
}

// figures returns the figures the steps kept.
func (e *Env) figures() map[string]float64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]float64, len(e.values))
	for k, v := range e.values {
		out[k] = v
	}
	return out
}

// MarkTime returns the time recorded under name, and whether there is one.
func (e *Env) MarkTime(name string) (time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.marks[name]
	return t, ok
}

// Seconds returns the time from mark a to mark b in seconds (-1 when
// either is missing).
func (e *Env) Seconds(a, b string) float64 {
	ta, oka := e.MarkTime(a)
	tb, okb := e.MarkTime(b)
	if !oka || !okb {
		return -1
	}
	return tb.Sub(ta).Seconds()
}

// At returns a mark as seconds on the sampler's clock (-1 when missing).
func (e *Env) At(name string) float64 {
	t, ok := e.MarkTime(name)
	if !ok {
		return -1
	}
	return t.Sub(e.Sampler.Rec.Start()).Seconds()
}

// SetAPIFaults replaces the apiserver's fault rules (see pkg/lab/faults).
func (e *Env) SetAPIFaults(cfg interface{}) error {
	return putJSON(e.Stack.APIURL+"/admin/faults", cfg)
}

// ClearAPIFaults removes every fault rule.
func (e *Env) ClearAPIFaults() error {
	req, _ := http.NewRequest(http.MethodDelete, e.Stack.APIURL+"/admin/faults", nil)
	return do(req)
}

// SetChurn makes the hollow nodes delete Running pods at perSecond.
func (e *Env) SetChurn(perSecond float64) error {
	return putJSON(e.Stack.HollowURL+"/admin/churn", map[string]float64{"perSecond": perSecond})
}

func putJSON(url string, v interface{}) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	req, _ := http.NewRequest(http.MethodPut, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return do(req)
}

func do(req *http.Request) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		return fmt.Errorf("%s %s: %s %s", req.Method, req.URL, resp.Status, bytes.TrimSpace(buf.Bytes()))
	}
	return nil
}

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// WaitFor polls cond every 100 ms until it is true, ctx ends, or limit
// passes; the error then says what was still not true.
func WaitFor(ctx context.Context, limit time.Duration, what string, cond func() (bool, string)) error {
	last := ""
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, limit, true, func(context.Context) (bool, error) {
		ok, state := cond()
		last = state
		return ok, nil
	})
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("%s: not reached within %v (%s)", what, limit, last)
}
