package scenario

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/prometheus/procfs"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// The parity of a fair fight: the work both stacks get in a run of a
// parity variant (Variant.Parity), so that what differs between them is
// the control plane and not the laboratory around it. Each value takes
// the less restrictive side's, so that parity is never reached by slowing
// 2014:
//
//   - Nodes: as many on both sides, one per ParityPodsPerNode pods and
//     at least the scenario's own. A node of today holds at most 110
//     pods by a kubelet's default, so 100 a node is as dense as today's
//     side can be and stay faithful; v0.4 set no limit, so the same
//     density is faithful to 2014 too. (Without parity our hollow nodes
//     stay at the scenario's 10 at every size, which crowds 1 000 pods
//     onto each at 10 000.)
//
//   - The simulated kubelets: ParityStatusWriters concurrent status
//     writers on both sides (our hollow nodes' -workers; KWOK's
//     podPlayStageParallelism, 4 by default, set through its
//     KwokConfiguration), and ParityStartDelay from binding to Running
//     (KWOK's pod-ready stage has no delay; our hollow nodes' 200 ms
//     goes).
//
//   - Limits: today's client limits lifted, as on the unthrottled
//     variants, and kube-apiserver's priority and fairness and its
//     inflight limits turned off, as kwokctl's --disable-qps-limits
//     does. v0.4's apiserver has none to turn off.
//
//   - The meter: off on both sides. Today's requests are then counted by
//     kube-apiserver's own metrics and our port's by our apiserver's;
//     v0.4's apiserver has no metrics, so nothing counts its requests
//     at parity, and a control run with the meter counts them
//     (stack-original-parity-with-meter).
//
//   - The laboratory's reader: on every side the member's write-ahead
//     log, read by a process that joins nothing (pkg/lab/walpods), the
//     default of every stack (stack.DefaultLabReader) which the parity
//     variants also name, so that no -lab_reader makes them unequal.
//     v0.4's apiserver stores in a member of its own, in a process of its
//     own, and the laboratory reads that member's log the same way.
const (
	ParityPodsPerNode   = 100
	ParityStatusWriters = 32
	ParityStartDelay    = time.Duration(0)
)

// parityAPIServerArgs turn kube-apiserver's priority and fairness and
// inflight limits off (a limit of 0 is none once priority and fairness
// is off).
var parityAPIServerArgs = []string{"--enable-priority-and-fairness=false", "--max-requests-inflight=0", "--max-mutating-requests-inflight=0"}

// ParityNodes is how many nodes both stacks get for sc at sz.
func ParityNodes(sc *Scenario, sz Size) int { return nodesFor(sc, sz, ParityPodsPerNode) }

// nodesFor is one node per perNode pods of sz, and at least sc's own.
func nodesFor(sc *Scenario, sz Size, perNode int) int {
	return max(sc.Cluster.Nodes, (podsOf(sz)+perNode-1)/perNode)
}

// parityNodes is how many nodes a run of parity variant v gets:
// ParityNodes, or with the sparse-nodes ablation one per
// SparsePodsPerNode pods.
func (v Variant) parityNodes(sc *Scenario, sz Size) int {
	if v.Ablated(AblateSparseNodes) {
		return nodesFor(sc, sz, SparsePodsPerNode)
	}
	return ParityNodes(sc, sz)
}

// podsOf is the pods of a size: its replicas, times its controllers
// where it has several.
func podsOf(sz Size) int {
	if sz.Controllers > 0 {
		return sz.Replicas * sz.Controllers
	}
	return sz.Replicas
}

// ParityGot is what a run's processes actually got, read from them (their
// command lines, the files those name, the cluster's nodes), not from
// what the laboratory meant to give them.
type ParityGot struct {
	// Nodes is the nodes the cluster holds.
	Nodes int
	// StatusWriters is the simulated kubelets' concurrent status writers.
	StatusWriters int
	// StartDelay is their time from binding a pod to reporting it Running.
	StartDelay time.Duration
	// Limits says what limits the apiserver puts on requests in flight:
	// "none", or the flags that set them.
	Limits string
	// Meter says the laboratory's meter stands in front of the apiserver.
	Meter bool
	// Reader is how the laboratory reads the pods.
	Reader string
}

// Differs names what of the compared values (nodes, writers, delay,
// limits, meter, reader) differs between g and o: a parity run whose sides
// differ is no fair fight.
func (g ParityGot) Differs(o ParityGot) []string {
	var out []string
	if g.Nodes != o.Nodes {
		out = append(out, fmt.Sprintf("nodes: %d against %d", g.Nodes, o.Nodes))
	}
	if g.StatusWriters != o.StatusWriters {
		out = append(out, fmt.Sprintf("status writers: %d against %d", g.StatusWriters, o.StatusWriters))
	}
	if g.StartDelay != o.StartDelay {
		out = append(out, fmt.Sprintf("start delay: %s against %s", g.StartDelay, o.StartDelay))
	}
	if g.Limits != o.Limits {
		out = append(out, fmt.Sprintf("apiserver limits: %s against %s", g.Limits, o.Limits))
	}
	if g.Meter != o.Meter {
		out = append(out, fmt.Sprintf("meter: %t against %t", g.Meter, o.Meter))
	}
	if g.Reader != o.Reader {
		out = append(out, fmt.Sprintf("reader: %s against %s", g.Reader, o.Reader))
	}
	return out
}

// Parity reads what the run's processes got (see ParityGot).
func (e *Env) Parity(ctx context.Context) (ParityGot, error) {
	switch c := e.Cluster.(type) {
	case ourCluster:
		return ourParity(ctx, c)
	case todayCluster:
		return todayParity(ctx, c)
	}
	return ParityGot{}, fmt.Errorf("%s: no parity to read on this cluster", e.Variant.Name)
}

func ourParity(ctx context.Context, c ourCluster) (ParityGot, error) {
	st := c.st
	if st.HollowNode == nil {
		return ParityGot{}, fmt.Errorf("no hollow nodes run")
	}
	args, err := cmdline(st.HollowNode.Pid())
	if err != nil {
		return ParityGot{}, err
	}
	// The hollow nodes' own defaults, where the command line leaves a
	// flag out (cmd/hollow-node).
	got := ParityGot{StatusWriters: 32, StartDelay: 500 * time.Millisecond, Limits: "none", Reader: st.LabReaderName()}
	for _, a := range args {
		name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !ok {
			continue
		}
		switch name {
		case "workers":
			got.StatusWriters, err = strconv.Atoi(value)
		case "start_delay":
			got.StartDelay, err = time.ParseDuration(value)
		}
		if err != nil {
			return got, fmt.Errorf("hollow-node %s: %v", a, err)
		}
	}
	minions, err := c.c.ListMinions()
	if err != nil {
		return got, err
	}
	got.Nodes = len(minions.Items)
	got.Meter = st.Metered()
	return got, nil
}

func todayParity(ctx context.Context, c todayCluster) (ParityGot, error) {
	st := c.st
	got := ParityGot{Reader: stack.LabAPIWatch, Meter: st.Metered()}
	if st.ReaderURL != "" {
		got.Reader = stack.LabWAL
	}
	nodes, err := c.lab.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return got, err
	}
	got.Nodes = len(nodes.Items)
	api, err := cmdline(st.APIServer.Pid())
	if err != nil {
		return got, err
	}
	got.Limits = apiserverLimits(api)
	kwok, err := cmdline(st.KWOK.Pid())
	if err != nil {
		return got, err
	}
	got.StatusWriters, got.StartDelay, err = kwokPlay(kwok)
	return got, err
}

// apiserverLimits reads kube-apiserver's limits on requests in flight
// from its command line: "none" when priority and fairness and both
// inflight limits are off, else the flags that leave one on.
func apiserverLimits(args []string) string {
	off := map[string]string{"enable-priority-and-fairness": "false", "max-requests-inflight": "0", "max-mutating-requests-inflight": "0"}
	set := map[string]string{}
	for _, a := range args {
		if name, value, ok := strings.Cut(strings.TrimLeft(a, "-"), "="); ok {
			set[name] = value
		}
	}
	var on []string
	for _, name := range []string{"enable-priority-and-fairness", "max-requests-inflight", "max-mutating-requests-inflight"} {
		if set[name] != off[name] {
			v := set[name]
			if v == "" {
				v = "its default"
			}
			on = append(on, "--"+name+" "+v)
		}
	}
	if len(on) == 0 {
		return "none"
	}
	return "on: " + strings.Join(on, ", ")
}

// kwokPlay reads, from the files KWOK's command line names (--config),
// how many pod stages it plays at once (its KwokConfiguration's
// podPlayStageParallelism, 4 where none sets it) and the delay of its
// pod-ready stage.
func kwokPlay(args []string) (writers int, delay time.Duration, err error) {
	writers = 4
	for i, a := range args {
		path, ok := strings.CutPrefix(a, "--config=")
		if !ok && a == "--config" && i+1 < len(args) {
			path, ok = args[i+1], true
		}
		if !ok {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, 0, err
		}
		for _, doc := range strings.Split(string(data), "\n---") {
			var d struct {
				Kind     string `json:"kind"`
				Metadata struct {
					Name string `json:"name"`
				} `json:"metadata"`
				Options struct {
					PodPlayStageParallelism int `json:"podPlayStageParallelism"`
				} `json:"options"`
				Spec struct {
					Delay *struct {
						DurationMilliseconds *int64 `json:"durationMilliseconds"`
					} `json:"delay"`
				} `json:"spec"`
			}
			if err := yaml.Unmarshal([]byte(doc), &d); err != nil {
				return 0, 0, fmt.Errorf("%s: %v", path, err)
			}
			switch {
			case d.Kind == "KwokConfiguration" && d.Options.PodPlayStageParallelism > 0:
				writers = d.Options.PodPlayStageParallelism
			case d.Kind == "Stage" && d.Metadata.Name == "pod-ready" && d.Spec.Delay != nil && d.Spec.Delay.DurationMilliseconds != nil:
				delay = time.Duration(*d.Spec.Delay.DurationMilliseconds) * time.Millisecond
			}
		}
	}
	return writers, delay, nil
}

// cmdline reads a process's arguments as the kernel holds them.
func cmdline(pid int) ([]string, error) {
	p, err := procfs.NewProc(pid)
	if err != nil {
		return nil, err
	}
	return p.CmdLine()
}
