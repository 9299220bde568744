package scenario

import (
	"context"
	"fmt"
	"net"
	"net/http"
	httppprof "net/http/pprof"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// With Options.Profile the apiserver, the hollow nodes, the laboratory's
// reader and the laboratory's own process are profiled for the whole run,
// in back-to-back CPU profiles of ProfileChunk each, kept in
// <Dir>/profiles with the time each began; the benchmark merges those
// of the span it measures (idle's window, a scale-up's creation to
// convergence). Go's profiler samples 100 times a second and costs the
// profiled process a few per cent of its CPU.

// ProfileChunk is the length of one CPU profile.
const ProfileChunk = 10 * time.Second

// Profile is one CPU profile taken during a run.
type Profile struct {
	// Process is the profiled process: apiserver or hollow-node.
	Process string `json:"process"`
	// From and To are seconds on the run's sampler clock.
	From float64 `json:"from"`
	To   float64 `json:"to"`
	Path string  `json:"path"`
}

// profiler takes CPU profiles until its context ends.
type profiler struct {
	dir    string
	start  time.Time
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	taken []Profile
}

// selfProfiles serves this process's CPU profile on loopback, started once
// (selfProfilesURL), so that the profiler takes the laboratory's own
// profiles as it takes the others': its jobs are labelled
// (stack.PartLabel), and the report splits its CPU by them.
var (
	selfOnce sync.Once
	selfURL  string
	selfErr  error
)

// selfProfilesURL returns the base URL of this process's profiles.
func selfProfilesURL() (string, error) {
	selfOnce.Do(func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			selfErr = err
			return
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/profile", httppprof.Profile)
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(l)
		selfURL = "http://" + l.Addr().String()
	})
	return selfURL, selfErr
}

// profilingArgs returns the apiserver flag that serves its profiles on
// port, a free loopback port (stack.StartWithPort picks it).
func profilingArgs(port int) []string {
	return []string{fmt.Sprintf("%s127.0.0.1:%d", stack.ProfilingFlag, port)}
}

// startProfiler profiles each of targets (process name → base URL) until
// stop.
func startProfiler(dir string, start time.Time, targets map[string]string) (*profiler, error) {
	ts := map[string]profileTarget{}
	for name, base := range targets {
		ts[name] = profileTarget{base: base, client: http.DefaultClient}
	}
	return startProfilerOf(dir, start, ts)
}

// profileTarget is a process to profile: its base URL, and the client
// and bearer token its /debug/pprof wants (kube-apiserver's asks for an
// identity allowed to read it; ours for none).
type profileTarget struct {
	base   string
	client *http.Client
	token  string
}

// startProfilerOf profiles each of targets, and the laboratory's own
// process beside them, until stop.
func startProfilerOf(dir string, start time.Time, targets map[string]profileTarget) (*profiler, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	self, err := selfProfilesURL()
	if err != nil {
		return nil, err
	}
	targets[sampler.ProcessSelf] = profileTarget{base: self, client: http.DefaultClient}
	ctx, cancel := context.WithCancel(context.Background())
	p := &profiler{dir: dir, start: start, cancel: cancel}
	for name, t := range targets {
		p.wg.Add(1)
		go p.loop(ctx, name, t)
	}
	return p, nil
}

func (p *profiler) loop(ctx context.Context, name string, t profileTarget) {
	defer p.wg.Done()
	url := fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", t.base, int(ProfileChunk/time.Second))
	for ctx.Err() == nil {
		from := time.Since(p.start).Seconds()
		path := filepath.Join(p.dir, fmt.Sprintf("%s-%08.1f.pb.gz", name, from))
		if err := sampler.SaveURLWith(ctx, t.client, t.token, url, path); err != nil {
			// The process may be restarting (the crash scenario), or
			// gone: try again shortly.
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
			continue
		}
		p.mu.Lock()
		p.taken = append(p.taken, Profile{Process: name, From: from, To: time.Since(p.start).Seconds(), Path: path})
		p.mu.Unlock()
	}
}

// stop ends profiling (the profile in progress is dropped) and returns the
// profiles taken.
func (p *profiler) stop() []Profile {
	p.cancel()
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Profile(nil), p.taken...)
}
