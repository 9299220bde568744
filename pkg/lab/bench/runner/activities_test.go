package runner

import (
	"testing"

	"github.com/google/pprof/profile"
)

// TestASampleCountsForTheInnermostActivityPastTheRuntime: an allocation
// inside a JSON encoder inside a handler is encoding's; the garbage
// collector's own work is its; a frame of no known activity is its
// package's.
func TestASampleCountsForTheInnermostActivityPastTheRuntime(t *testing.T) {
	fn := map[string]*profile.Function{}
	loc := func(names ...string) []*profile.Location {
		var out []*profile.Location
		for _, n := range names {
			if fn[n] == nil {
				fn[n] = &profile.Function{ID: uint64(len(fn) + 1), Name: n}
			}
			out = append(out, &profile.Location{ID: uint64(len(out) + 1), Line: []profile.Line{{Function: fn[n]}}})
		}
		return out
	}
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
	add := func(ns int64, frames ...string) {
		p.Sample = append(p.Sample, &profile.Sample{Location: loc(frames...), Value: []int64{1, ns}})
	}
	add(3e9, "runtime.mallocgc", "encoding/json.(*encodeState).marshal", "k8s.io/apiserver/pkg/endpoints/handlers.(*x).ServeHTTP")
	add(2e9, "runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker")
	add(1e9, "gcWriteBarrier", "k8s.io/apiserver/pkg/storage/cacher.(*Cacher).dispatchEvent")
	add(5e8, "k8s.io/kubernetes/pkg/registry/core/pod.(*x).y")
	got := map[string]float64{}
	for _, r := range activities(p) {
		got[r.Function] = r.Flat
	}
	want := map[string]float64{"encoding and decoding": 3, "garbage collection": 2, "watch cache and fan-out": 1, "other: k8s.io/kubernetes/pkg/registry/core/pod": 0.5}
	for a, v := range want {
		if got[a] != v {
			t.Errorf("%s: %v s, want %v (all: %v)", a, got[a], v, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("activities %v, want %v", got, want)
	}
}
