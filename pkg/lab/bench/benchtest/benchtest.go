package benchtest

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"golang.org/x/net/html"
)

// Runs stands in for scenario.Run: it returns a synthetic outcome
// shaped like a real one (pods ramping up, a goroutine burst, cumulative
// request counters, marks) and records the order it was called in.
type Runs struct {
	Calls []string
	// Fail makes the named "scenario/variant/run" fail.
	Fail map[string]bool
	// CancelAfter cancels the benchmark after this many calls (0: never).
	CancelAfter int
	Cancel      context.CancelFunc
	PerVariant  map[string]int
	// IdleCPU, when set, gives an idle run's apiserver CPU a minute.
	IdleCPU func(variant string, pods int) float64
	// EtcdServers records the external etcd each run was pointed at.
	EtcdServers map[string][]string
	// Block makes the named "scenario/variant/run" wait for its context.
	Block map[string]bool
	// Saturate makes the named "scenario/size/variant" fail with the
	// hollow nodes' pod watch fallen out of etcd's window three times.
	Saturate map[string]bool
}

func (f *Runs) Run(ctx context.Context, sc *scenario.Scenario, v scenario.Variant, sz scenario.Size, opts scenario.Options) (*scenario.Outcome, error) {
	if f.PerVariant == nil {
		f.PerVariant = map[string]int{}
	}
	key := sc.Name + "/" + sz.Label + "/" + v.Name
	i := f.PerVariant[key]
	f.PerVariant[key]++
	f.Calls = append(f.Calls, fmt.Sprintf("%s/%s/%d", sc.Name, v.Name, i))
	if f.CancelAfter > 0 && len(f.Calls) >= f.CancelAfter {
		f.Cancel()
	}
	if f.EtcdServers == nil {
		f.EtcdServers = map[string][]string{}
	}
	f.EtcdServers[sc.Name+"/"+sz.Label+"/"+v.Name] = opts.EtcdServers
	if f.Block[fmt.Sprintf("%s/%s/%d", sc.Name, v.Name, i)] {
		<-ctx.Done()
		return nil, fmt.Errorf("%s/%s step 2 (Wait): %v", sc.Name, v.Name, ctx.Err())
	}
	if f.Saturate[key] {
		rec := sampler.NewRecorder(time.Now())
		for t, v := range []float64{0, 1, 3, 3} {
			rec.Add(sampler.HollowExpired, rec.Start().Add(time.Duration(t)*time.Second), v)
		}
		return &scenario.Outcome{Rec: rec}, fmt.Errorf("%s/%s step 2 (Wait): not reached", sc.Name, v.Name)
	}
	if f.Fail[fmt.Sprintf("%s/%s/%d", sc.Name, v.Name, i)] {
		return nil, fmt.Errorf("%s/%s step 1 (Create): connection refused", sc.Name, v.Name)
	}
	out := Synthetic(sc.Name, v.Name, sz, i)
	out.Variant = v
	if f.IdleCPU != nil && sc.Name == "idle" {
		out.Results = append(out.Results, scenario.Result{Name: "apiserver_cpu_per_min", Unit: "CPU s/min", Value: f.IdleCPU(v.Name, sz.Controllers*sz.Replicas)})
	}
	return out, nil
}

// Synthetic builds an outcome in which legacy creates all at once, modern
// at 20 per second and modern-unthrottled a little slower than legacy.
func Synthetic(name, variant string, sz scenario.Size, run int) *scenario.Outcome {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rec := sampler.NewRecorder(start)
	n := float64(sz.Replicas)
	if n == 0 {
		n = 10
	}
	if sz.Controllers > 0 {
		n *= float64(sz.Controllers)
	}
	jitter := 1 + 0.03*float64(run%3-1)
	ramp := map[string]float64{"legacy": 1 + n/400, "modern": 1 + n/20, "modern-unthrottled": 1.2 + n/350}[variant] * jitter
	created := 2.0
	end := created + ramp + 5
	if sz.Window > 0 {
		end += sz.Window.Seconds()
	}
	at := func(t float64) time.Time { return start.Add(time.Duration(t * float64(time.Second))) }
	var lists, posts, watches, cmLists float64
	for t := 0.0; t <= end; t += 0.1 {
		frac := math.Max(0, math.Min(1, (t-created)/ramp))
		running := math.Floor(n * frac)
		rec.Add(sampler.PodsRunning, at(t), running)
		rec.Add(sampler.PodsActive, at(t), running)
		rec.Add(sampler.PodsCreated, at(t), running)
		g := 25.0
		if t > created && t < created+ramp {
			if variant == "legacy" {
				g += n * math.Exp(-(t-created)*3)
			} else {
				g += math.Min(64, n/4)
			}
		}
		rec.Add(sampler.ManagerGoroutines, at(t), g)
		if math.Mod(t, 10) < 0.1 {
			lists += 2 + n/10
			if variant == "legacy" {
				cmLists += 1 + n/10
			}
		}
		posts = running
		if t < 0.15 {
			watches += 3
		}
		rec.Add(sampler.APIRequests+"LIST", at(t), lists)
		rec.Add(sampler.ManagerRequests+"LIST", at(t), cmLists)
		rec.Add(sampler.APIRequests+"POST", at(t), posts)
		rec.Add(sampler.ManagerRequests+"POST", at(t), posts)
		rec.Add(sampler.APIRequests+"WATCH", at(t), watches)
		rec.Add(sampler.ManagerPodPosts, at(t), posts)
	}
	extra := 0.0
	if variant == "legacy" && name == "two-managers" {
		extra = n * float64(1+run%2) / 2
	}
	goroutinePeak := rec.Max(sampler.ManagerGoroutines)
	results := []scenario.Result{
		{Name: "time_to_running", Unit: "s", Value: ramp, LowerIsBetter: true},
		{Name: "extra_pods", Unit: "pods", Value: extra, LowerIsBetter: true},
		{Name: "peak_goroutines", Process: sampler.ProcessManager, Unit: "goroutines", Value: goroutinePeak, LowerIsBetter: true},
	}
	if name == "scale-up" {
		sockets, writes := n+4, 0.0
		if variant != "legacy" {
			sockets, writes = math.Min(64, n/4)+4, n/8*jitter
		}
		results = append(results,
			scenario.Result{Name: "peak_sockets", Process: sampler.ProcessManager, Unit: "sockets", Value: sockets, LowerIsBetter: true},
			scenario.Result{Name: "peak_rss", Process: sampler.ProcessManager, Unit: "MiB", Value: 30 + n/20, LowerIsBetter: true},
			scenario.Result{Name: "status_writes", Process: sampler.ProcessManager, Unit: "requests", Value: writes, LowerIsBetter: true},
			scenario.Result{Name: "apiserver_cpu", Process: sampler.ProcessAPIServer, Unit: "CPU s", Value: (1 + writes/50) * jitter, LowerIsBetter: true})
	}
	if name == "idle" {
		perMin := map[string]float64{"legacy": 72, "modern": 0, "modern-unthrottled": 0}[variant]
		if variant == "modern" && run == 1 {
			perMin = 1
		}
		election := 0.0
		if variant != "legacy" {
			election = 30
		}
		results = []scenario.Result{
			{Name: "requests_per_min", Process: sampler.ProcessManager, Unit: "req/min", Value: perMin * jitter, LowerIsBetter: true},
			{Name: "lists_per_min", Process: sampler.ProcessManager, Unit: "req/min", Value: perMin * jitter, LowerIsBetter: true},
			{Name: "sync_requests_per_min", Process: sampler.ProcessManager, Unit: "req/min", Value: perMin * jitter, LowerIsBetter: true},
			{Name: "status_writes_per_min", Process: sampler.ProcessManager, Unit: "req/min", LowerIsBetter: true},
			{Name: "election_requests_per_min", Process: sampler.ProcessManager, Unit: "req/min", Value: election, LowerIsBetter: true},
			{Name: "events_per_min", Process: sampler.ProcessManager, Unit: "req/min", LowerIsBetter: true},
		}
		// The window's counts, which idle's expectation judges: a 2014
		// window of three ticks of 1 + M LISTs, a modern one of lease
		// renewals only.
		if variant == "legacy" {
			results = append(results,
				scenario.Result{Name: "lists_during_idle", Process: sampler.ProcessManager, Unit: "requests", Value: 3 * float64(1+sz.Controllers)},
				scenario.Result{Name: "ticks_during_idle", Process: sampler.ProcessManager, Unit: "ticks", Value: 3})
		} else {
			results = append(results, scenario.Result{Name: "election_requests_during_idle", Process: sampler.ProcessManager, Unit: "requests", Value: 15})
		}
	}
	v, err := scenario.VariantByName(variant)
	if err != nil {
		v = scenario.Variant{Name: variant, Design: variant}
	}
	return &scenario.Outcome{
		Scenario: name,
		Variant:  v,
		Size:     sz,
		Results:  results,
		Rec:      rec,
		Marks:    map[string]float64{"start": 0, "created": created, "converged": created + ramp},
		Duration: time.Duration(end * float64(time.Second)),
	}
}

// Calibration stands in for the real calibration.
func Calibration(ctx context.Context, r *runner.Runner, dir string, p *runner.Plan) (*results.Calibration, error) {
	cal := &results.Calibration{Seconds: p.CalibrationSeconds, EtcdSetup: "fake etcd", APIServerSetup: "fake apiserver"}
	seconds := p.CalibrationSeconds
	for _, c := range p.CalibrationClients {
		cal.Levels = append(cal.Levels,
			results.Level{Target: "etcd", Clients: c, Requests: 300 * c, Seconds: seconds, PerSecond: 300 * math.Sqrt(float64(c)), P50Ms: 2, P90Ms: 3, P99Ms: 5},
			results.Level{Target: "apiserver", Clients: c, Requests: 100 * c, Seconds: seconds, PerSecond: 120 * math.Sqrt(float64(c)), P50Ms: 6, P90Ms: 9, P99Ms: 14})
	}
	for _, l := range cal.Levels {
		if l.Target == "apiserver" && l.Clients == results.FloorClients {
			cal.CreateRate = l.PerSecond
		}
	}
	if p.ReferenceReplicas > 0 {
		n := float64(p.ReferenceReplicas)
		cal.Reference = &results.ReferenceScaleUp{Replicas: p.ReferenceReplicas, CreateSeconds: n / 700, RunningSeconds: 0.5 + n/500}
		cal.ReferenceSetup = "fake reference"
	}
	return cal, nil
}

// BinDir returns a directory holding empty executables named bins.
func BinDir(t *testing.T, bins ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, b := range bins {
		if err := os.WriteFile(filepath.Join(dir, b), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func BothDesigns(t *testing.T) string {
	return BinDir(t, "apiserver", "hollow-node", "controller-manager", "controller-manager-modern")
}

// Runner returns a runner over synthetic outcomes writing under a
// temporary directory, or under $KUBE_REWIND_BENCH_KEEP to look at the
// charts afterwards.
func Runner(t *testing.T, opts runner.Options, f *Runs) (*runner.Runner, *bytes.Buffer) {
	t.Helper()
	if opts.BinDir == "" {
		opts.BinDir = BothDesigns(t)
	}
	opts.Out = t.TempDir()
	if keep := os.Getenv("KUBE_REWIND_BENCH_KEEP"); keep != "" {
		opts.Out = filepath.Join(keep, t.Name())
		opts.PNG = true
	}
	var log bytes.Buffer
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	r := &runner.Runner{Opts: opts, Log: &log, Scenarios: f, Calibrate: Calibration,
		Now: func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock },
		EtcdCluster: func(dir string, members int) ([]string, stack.ReadMember, func(), error) {
			var urls []string
			for i := 0; i < members; i++ {
				urls = append(urls, fmt.Sprintf("http://127.0.0.1:%d", 40000+i))
			}
			return urls, stack.ReadMember{}, func() {}, nil
		}}
	return r, &log
}

// CheckXML fails when data is not well-formed XML.
func CheckXML(t *testing.T, name string, data []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Errorf("%s is not well-formed: %v", name, err)
			return
		}
	}
}

// CheckHTML parses page, checks that every element it opens it closes,
// that it fetches nothing and runs no script, and that its SVGs are there.
func CheckHTML(t *testing.T, page []byte) {
	t.Helper()
	if _, err := html.Parse(bytes.NewReader(page)); err != nil {
		t.Fatalf("report.html does not parse: %v", err)
	}
	void := map[string]bool{"meta": true, "br": true, "img": true, "hr": true}
	var stack []string
	z := html.NewTokenizer(bytes.NewReader(page))
	svgs := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		name, hasAttr := z.TagName()
		tag := string(name)
		for hasAttr {
			var key, val []byte
			key, val, hasAttr = z.TagAttr()
			if k := string(key); k == "src" || (k == "href" && !strings.HasPrefix(string(val), "#")) {
				t.Errorf("report.html fetches %s=%q", k, val)
			}
		}
		switch tt {
		case html.StartTagToken:
			if tag == "script" {
				t.Error("report.html has a script")
			}
			if tag == "svg" {
				svgs++
			}
			if !void[tag] {
				stack = append(stack, tag)
			}
		case html.EndTagToken:
			if len(stack) == 0 || stack[len(stack)-1] != tag {
				t.Fatalf("report.html closes <%s> but <%v> is open", tag, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) != 0 {
		t.Errorf("report.html leaves %v open", stack)
	}
	if svgs == 0 {
		t.Error("report.html has no inline SVG")
	}
}

// OriginalVariants are the variants a plan asks for in OriginalCases.
var OriginalVariants = []string{"legacy", "legacy-original", "stack-original"}

// OriginalCase is a directory where a plan looks for the original v0.4
// binaries, and which of OriginalVariants it must then run.
type OriginalCase struct {
	Name string
	Dir  string
	Want []string
}

// OriginalCases are make original's binaries missing, then there.
func OriginalCases(t *testing.T) []OriginalCase {
	return []OriginalCase{
		{"without the binaries", t.TempDir(), []string{"legacy"}},
		{"with them", BinDir(t, original.Binaries...), OriginalVariants},
	}
}
