package runner

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// spin keeps a core busy until it has had d of CPU time, in a function a
// profile can name. CPU time, not time on the clock: on a loaded machine
// 300 ms of the clock gave the spinning thread too little CPU for a single
// sample of the profile.
func spin(d time.Duration) uint64 {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	x := uint64(1)
	for threadCPU()-start < d {
		for i := 0; i < 1<<20; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

// threadCPU is the CPU time of the calling thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuProfile profiles this process while it spins for d.
func cpuProfile(t *testing.T, path string, d time.Duration) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Skipf("cannot profile here: %v", err)
	}
	spin(d)
	pprof.StopCPUProfile()
	f.Close()
}

// The profiles that overlap the measured span are merged into one per
// process, kept beside the run, and their top functions named; those
// outside the span are left out.
func TestTheProfilesOfTheMeasuredSpanAreMergedAndSummarized(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join("runs", "idle_x_modern_1")
	os.MkdirAll(filepath.Join(dir, runDir, "profiles"), 0o755)
	var profiles []scenario.Profile
	for i, span := range [][2]float64{{0, 10}, {10, 20}, {20, 30}} {
		path := filepath.Join(dir, runDir, "profiles", "apiserver-"+string(rune('a'+i))+".pb.gz")
		cpuProfile(t, path, 300*time.Millisecond)
		profiles = append(profiles, scenario.Profile{Process: "apiserver", From: span[0], To: span[1], Path: path})
	}
	out := &scenario.Outcome{Profiles: profiles, Marks: map[string]float64{"start": 0, "idle-start": 12, "idle-end": 25}}
	rec := results.RunRecord{Scenario: "idle", Size: scenario.Size{Label: "x"}, Variant: scenario.Modern, Dir: runDir}
	sums, err := summarizeProfiles(rec, out, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 1 {
		t.Fatalf("%d summaries, want one for the apiserver", len(sums))
	}
	s := sums[0]
	if s.Span != "idle-start to idle-end" || s.From != 10 || s.To != 30 {
		t.Errorf("span %q from %v to %v, want idle's window covered by the last two profiles (10 to 30)", s.Span, s.From, s.To)
	}
	if _, err := os.Stat(filepath.Join(dir, s.Path)); err != nil {
		t.Errorf("no merged profile: %v", err)
	}
	found := false
	for _, r := range s.Top {
		if strings.HasSuffix(r.Function, ".spin") && r.Flat > 0 {
			found = true
		}
	}
	if s.CPU <= 0 || !found {
		t.Errorf("%v CPU s, top %+v: the spinning function is not named", s.CPU, s.Top)
	}
	if s.Parts != nil {
		t.Errorf("a process with no labelled jobs split by job: %+v", s.Parts)
	}
}

// TestTheLaboratorysProfileIsSplitByJob: a goroutine started by one
// that stack.GoAs labelled carries the job's label into the profile, and
// the samples of no job count as the rest.
func TestTheLaboratorysProfileIsSplitByJob(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rcbench.pb.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Skipf("cannot profile here: %v", err)
	}
	done := make(chan struct{})
	stack.GoAs(stack.PartEtcdFront, func() {
		// A goroutine the job's goroutine starts, as a server starts
		// one for each connection.
		go func() { spin(300 * time.Millisecond); close(done) }()
	})
	spin(300 * time.Millisecond)
	<-done
	pprof.StopCPUProfile()
	f.Close()
	out := &scenario.Outcome{Profiles: []scenario.Profile{{Process: "rcbench", From: 0, To: 10, Path: path}}, Marks: map[string]float64{"created": 1, "converged": 5}}
	sums, err := summarizeProfiles(results.RunRecord{Scenario: "scale-up", Size: scenario.Size{Label: "x"}, Variant: scenario.Legacy}, out, dir)
	if err != nil || len(sums) != 1 {
		t.Fatalf("%v, %d summaries", err, len(sums))
	}
	got := map[string]float64{}
	for _, r := range sums[0].Parts {
		got[r.Function] = r.Flat
	}
	if got[stack.PartEtcdFront] <= 0 || got[results.PartsRest] <= 0 || len(got) != 2 {
		t.Errorf("jobs %+v, want CPU for the etcd front (a goroutine its goroutine started) and for the rest", sums[0].Parts)
	}
}

func TestTheMeasuredSpanIsIdlesWindowOrCreationToConvergence(t *testing.T) {
	for _, c := range []struct {
		marks map[string]float64
		want  string
	}{
		{map[string]float64{"idle-start": 1, "idle-end": 2, "created": 0, "converged": 3}, "idle-start to idle-end"},
		{map[string]float64{"created": 1, "converged": 2}, "created to converged"},
		{map[string]float64{"created": 1}, "the whole run"},
	} {
		if got, _, _ := measuredSpan(c.marks); got != c.want {
			t.Errorf("span of %v: %q, want %q", c.marks, got, c.want)
		}
	}
}
