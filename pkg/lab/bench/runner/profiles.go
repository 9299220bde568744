package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// With -profile every run profiles the apiserver and the hollow nodes
// (scenario.Options.Profile); the profiles of the span a run measures are
// merged into one per process, kept beside the run's logs, and their top
// entries go on the page, so that a cost no request explains is shown
// where it is read.

// measuredSpan returns the marks that bound what a run measures: idle's
// window, or from the action to convergence; the whole run otherwise.
func measuredSpan(marks map[string]float64) (name string, from, to float64) {
	for _, pair := range [][2]string{{"idle-start", "idle-end"}, {"created", "converged"}, {"resized", "converged"}, {"crash", "converged"}} {
		a, okA := marks[pair[0]]
		b, okB := marks[pair[1]]
		if okA && okB && a >= 0 && b > a {
			return pair[0] + " to " + pair[1], a, b
		}
	}
	return "the whole run", 0, 1e12
}

// summarizeProfiles merges, for each process, the profiles of o that
// overlap its measured span into <runDir>/<process>.cpu.pb.gz and
// summarizes each.
func summarizeProfiles(rec results.RunRecord, o *scenario.Outcome, reportDir string) ([]results.ProfileSummary, error) {
	if o == nil || len(o.Profiles) == 0 {
		return nil, nil
	}
	span, from, to := measuredSpan(o.Marks)
	byProcess := map[string][]*profile.Profile{}
	covered := map[string][2]float64{}
	for _, p := range o.Profiles {
		if p.To <= from || p.From >= to {
			continue
		}
		f, err := os.Open(p.Path)
		if err != nil {
			return nil, err
		}
		prof, err := profile.Parse(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p.Path, err)
		}
		byProcess[p.Process] = append(byProcess[p.Process], prof)
		c, seen := covered[p.Process]
		if !seen || p.From < c[0] {
			c[0] = p.From
		}
		if p.To > c[1] {
			c[1] = p.To
		}
		covered[p.Process] = c
	}
	var out []results.ProfileSummary
	for process, profs := range byProcess {
		merged, err := profile.Merge(profs)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(rec.Dir, process+".cpu.pb.gz")
		f, err := os.Create(filepath.Join(reportDir, path))
		if err != nil {
			return nil, err
		}
		err = merged.Write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		cpu, top := topFunctions(merged, results.ProfileTop)
		out = append(out, results.ProfileSummary{Scenario: rec.Scenario, Size: rec.Size.Label, Variant: rec.Variant.Name, Run: rec.Index + 1,
			Process: process, Span: span, From: covered[process][0], To: covered[process][1],
			Profiled: covered[process][1] - covered[process][0], CPU: cpu, Path: path, Top: top,
			Activities: activities(merged), Parts: parts(merged)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Process < out[j].Process })
	return out, nil
}

// topFunctions returns the CPU seconds a CPU profile sampled and its n
// functions of most flat time.
func topFunctions(p *profile.Profile, n int) (float64, []results.ProfileRow) {
	index := cpuIndex(p)
	if index < 0 {
		return 0, nil
	}
	flat, cum := map[string]float64{}, map[string]float64{}
	total := 0.0
	for _, s := range p.Sample {
		v := float64(s.Value[index]) / 1e9
		total += v
		seen := map[string]bool{}
		for i, loc := range s.Location {
			// The innermost line of a location is the function it was in
			// (inlined calls come first).
			for j, line := range loc.Line {
				if line.Function == nil {
					continue
				}
				name := line.Function.Name
				if i == 0 && j == 0 {
					flat[name] += v
				}
				if !seen[name] {
					seen[name] = true
					cum[name] += v
				}
			}
		}
	}
	rows := make([]results.ProfileRow, 0, len(flat))
	for name, v := range flat {
		rows = append(rows, results.ProfileRow{Function: name, Flat: v, Cum: cum[name]})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Flat != rows[j].Flat {
			return rows[i].Flat > rows[j].Flat
		}
		return rows[i].Function < rows[j].Function
	})
	if len(rows) > n {
		rows = rows[:n]
	}
	return total, rows
}

// activityOf names what a function does for an apiserver, by the
// package it is in, first match winning; "" for a function that names no
// activity (the runtime's, the standard library's plumbing).
var activityOf = []struct{ activity, in string }{
	{"admission", "k8s.io/apiserver/pkg/admission"},
	{"managed fields", "sigs.k8s.io/structured-merge-diff"},
	{"managed fields", "managedfields"},
	{"managed fields", "handlers/fieldmanager"},
	{"validation", "/validation."},
	{"authentication and authorization", "k8s.io/apiserver/pkg/authentication"},
	{"authentication and authorization", "k8s.io/apiserver/pkg/authorization"},
	{"authentication and authorization", "plugin/pkg/auth"},
	{"watch cache and fan-out", "k8s.io/apiserver/pkg/storage/cacher"},
	{"conversion and defaulting", "k8s.io/apimachinery/pkg/conversion"},
	{"conversion and defaulting", "zz_generated"},
	{"conversion and defaulting", ".Convert_"},
	{"conversion and defaulting", "SetObjectDefaults"},
	{"encoding and decoding", "encoding/json"},
	{"encoding and decoding", "sigs.k8s.io/json"},
	{"encoding and decoding", "k8s.io/apimachinery/pkg/runtime/serializer"},
	{"encoding and decoding", "github.com/gogo/protobuf"},
	{"encoding and decoding", "google.golang.org/protobuf"},
	{"encoding and decoding", ").Marshal"},
	{"encoding and decoding", ").Unmarshal"},
	{"encoding and decoding", "github.com/go-json-experiment"},
	{"encoding and decoding", "github.com/kube-rewind/kube-rewind/pkg/api."},
	// v0.4's own apiserver (make original): a YAML parser decodes every
	// object, and its scheme converts it by reflection.
	{"encoding and decoding", "gopkg.in/v1/yaml"},
	{"encoding and decoding", "github.com/GoogleCloudPlatform/kubernetes/pkg/runtime"},
	{"conversion and defaulting", "github.com/GoogleCloudPlatform/kubernetes/pkg/conversion"},
	{"etcd's client", "go.etcd.io/etcd/client"},
	{"etcd's client", "github.com/coreos/go-etcd"},
	{"etcd's client", "google.golang.org/grpc"},
	{"etcd (the embedded member)", "go.etcd.io/etcd/server"},
	{"etcd (the embedded member)", "go.etcd.io/raft"},
	{"etcd (the embedded member)", "go.etcd.io/bbolt"},
	{"TLS", "crypto/"},
	{"HTTP", "net/http"},
	{"HTTP", "golang.org/x/net/http2"},
	{"HTTP", "github.com/gorilla/mux"},
}

// runtimeFrame says a frame is the runtime's or the standard library's
// plumbing, which works for whatever called it.
func runtimeFrame(name string) bool {
	if !strings.Contains(name, ".") {
		// The runtime's assembly: gcWriteBarrier, memeqbody.
		return true
	}
	for _, p := range []string{"runtime.", "internal/", "sync.", "syscall.", "reflect.", "strings.", "bytes.", "strconv.", "sort.", "slices.", "maps.", "unicode", "math", "time.", "context.", "io.", "bufio.", "fmt."} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// activities attributes a CPU profile's samples to what the process was
// doing (ProfileSummary.Activities), largest first: each sample to the
// innermost frame that names an activity, past the runtime's own; else,
// if any frame is the garbage collector's, to it; else to the package of
// its innermost frame that is not the runtime's, as "other: <package>".
func activities(p *profile.Profile) []results.ProfileRow {
	index := cpuIndex(p)
	if index < 0 {
		return nil
	}
	by := map[string]float64{}
	for _, s := range p.Sample {
		v := float64(s.Value[index]) / 1e9
		var names []string
		for _, loc := range s.Location {
			for _, line := range loc.Line {
				if line.Function != nil {
					names = append(names, line.Function.Name)
				}
			}
		}
		by[activityOfSample(names)] += v
	}
	return largestFirst(by)
}

// parts sums a profile's CPU by the laboratory's job each sample's
// goroutine carried (stack.PartLabel), largest first; nil where no
// sample carries one: a process other than the laboratory's own.
func parts(p *profile.Profile) []results.ProfileRow {
	index := cpuIndex(p)
	if index < 0 {
		return nil
	}
	by, labelled := map[string]float64{}, false
	for _, s := range p.Sample {
		part := results.PartsRest
		if v := s.Label[stack.PartLabel]; len(v) > 0 {
			part, labelled = v[0], true
		}
		by[part] += float64(s.Value[index]) / 1e9
	}
	if !labelled {
		return nil
	}
	return largestFirst(by)
}

// largestFirst makes rows of CPU seconds by name, the largest first and
// names alike in the alphabet's order.
func largestFirst(by map[string]float64) []results.ProfileRow {
	rows := make([]results.ProfileRow, 0, len(by))
	for name, v := range by {
		rows = append(rows, results.ProfileRow{Function: name, Flat: v})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Flat != rows[j].Flat {
			return rows[i].Flat > rows[j].Flat
		}
		return rows[i].Function < rows[j].Function
	})
	return rows
}

// activityOfSample names the activity of a sample's frames, innermost
// first.
func activityOfSample(frames []string) string {
	for _, f := range frames {
		if runtimeFrame(f) {
			continue
		}
		for _, a := range activityOf {
			if strings.Contains(f, a.in) {
				return a.activity
			}
		}
	}
	for _, f := range frames {
		if strings.Contains(f, "runtime.gcBgMarkWorker") || strings.Contains(f, "runtime.bgsweep") || strings.Contains(f, "runtime.bgscavenge") || strings.Contains(f, "runtime.gcDrain") {
			return "garbage collection"
		}
	}
	for _, f := range frames {
		if !runtimeFrame(f) {
			return "other: " + packageOf(f)
		}
	}
	return "the runtime"
}

// packageOf is a function's package path: "k8s.io/apiserver/pkg/server"
// of "k8s.io/apiserver/pkg/server.(*x).y".
func packageOf(function string) string {
	slash := strings.LastIndex(function, "/")
	dot := strings.Index(function[slash+1:], ".")
	if dot < 0 {
		return function
	}
	return function[:slash+1+dot]
}

// cpuIndex is the index of a profile's CPU nanoseconds among its sample
// values, or -1.
func cpuIndex(p *profile.Profile) int {
	index := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			index = i
		}
	}
	return index
}

// Profiles gathers every run's profile summaries.
func Profiles(runs []results.RunRecord) []results.ProfileSummary {
	var out []results.ProfileSummary
	for _, r := range runs {
		out = append(out, r.Profiles...)
	}
	return out
}
