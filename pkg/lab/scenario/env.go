package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Env is one running cluster of one variant, as a scenario sees it.
type Env struct {
	Variant Variant
	Size    Size
	// Cluster is what steps that run on every stack act on.
	Cluster Cluster
	// Stack and Client are our stack and our client of it, for the steps
	// that need more of it than Cluster (its fault switch, its hollow
	// nodes, killing its processes); nil on today's stack.
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

// Close stops sampling and the cluster.
func (e *Env) Close() {
	e.StopSampling()
	e.Cluster.Stop()
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

// SetFigures keeps figures a step computed, for the scenario's results.
func (e *Env) SetFigures(values map[string]float64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.values == nil {
		e.values = map[string]float64{}
	}
	for k, v := range values {
		e.values[k] = v
	}
}

// Figures returns the figures the steps kept.
func (e *Env) Figures() map[string]float64 {
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
