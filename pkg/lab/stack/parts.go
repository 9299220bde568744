package stack

import (
	"context"
	"runtime/pprof"
)

// The laboratory's own process, rcbench, does several jobs beside the
// stacks it runs: it is the etcd front of v0.4's apiserver and the meter,
// it reads the pods, and for v0.4 it asks the kubelets for their status,
// as that apiserver did on each read. Each job's goroutines carry a
// profiler label, so that a CPU profile of rcbench (the benchmark's
// -profile) splits its CPU by job: the laboratory's share of each corner,
// named. A goroutine inherits the labels of the one that started it, so
// labelling where a job's goroutines begin labels all of them, the
// connections they open included.

// PartLabel is the profiler label that names a job of the laboratory.
const PartLabel = "lab"

// The jobs of the laboratory's process (PartLabel's values).
const (
	PartEtcdFront   = "the etcd front"
	PartMeter       = "the meter"
	PartPodReader   = "the pod reader"
	PartStatusReads = "v0.4's pod status reads"
	PartScrapes     = "the scrapes"
)

// GoAs runs f in a new goroutine labelled with part.
func GoAs(part string, f func()) {
	pprof.Do(context.Background(), pprof.Labels(PartLabel, part), func(context.Context) { go f() })
}
