package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// itemPods is the number of pods an item's cluster holds.
func itemPods(it Item) int {
	if it.Size.Controllers > 0 {
		return it.Size.Controllers * it.Size.Replicas
	}
	return it.Size.Replicas
}

// runItems runs every item of p, each on fresh clusters, and returns the
// records of the runs that finished or failed (not those cut short), and
// in a sweep the runs it left out: a design's larger sizes of a scenario
// once it broke, and whatever the budget left no time for.
func (r *Runner) runItems(ctx context.Context, dir string, p *Plan, cores int) ([]RunRecord, []Skip) {
	var runs []RunRecord
	var skipped []Skip
	total, done := p.Runs(), 0
	var deadline time.Time
	if p.Budget > 0 {
		deadline = r.now().Add(p.Budget)
	}
	// brokeAt holds, by scenario and variant, the pods at which the
	// design broke and the figure that broke.
	type broke struct {
		pods int
		why  string
	}
	brokeAt := map[string]broke{}
	skip := func(it Item, v string, why string) {
		skipped = append(skipped, Skip{Scenario: it.Scenario.Name, Label: it.Size.Label, Variant: v, Why: why})
		r.say("        %s %s %s not run: %s", it.Scenario.Name, it.Size.Label, v, why)
	}
	for _, it := range p.Items {
		// Variants alternate, A B C A B C, so that a slow spell of the
		// machine spreads over all of them instead of hitting one.
		for i := 0; i < it.Runs && ctx.Err() == nil; i++ {
			for _, v := range it.Variants {
				if ctx.Err() != nil {
					break
				}
				done++
				key := it.Scenario.Name + "/" + v.Name
				if b, ok := brokeAt[key]; ok && p.Sweep && it.EtcdMembers == 0 && itemPods(it) > b.pods {
					skip(it, v.Name, fmt.Sprintf("broke at %d (%s)", b.pods, b.why))
					continue
				}
				limit := it.Limit
				budgetCut := false
				if !deadline.IsZero() {
					left := deadline.Sub(r.now())
					if left <= 0 {
						skip(it, v.Name, fmt.Sprintf("the sweep's budget of %s was used up", formatDuration(p.Budget)))
						continue
					}
					if limit == 0 || left < limit {
						limit, budgetCut = left, true
					}
				}
				rec := r.runOne(ctx, dir, it, v, i, done, total, limit)
				// A run cut short by Ctrl-C did not fail: it is left out.
				if rec.Outcome == nil && ctx.Err() != nil {
					break
				}
				// Nor did one stopped by the end of the budget.
				if rec.TimedOut && budgetCut {
					skip(it, v.Name, fmt.Sprintf("stopped unfinished when the sweep's budget of %s ran out", formatDuration(p.Budget)))
					continue
				}
				runs = append(runs, rec)
				// A run whose laboratory was saturated measured the
				// hollow nodes or the benchmark as much as the design:
				// it marks no break, and the larger sizes still run.
				if rec.Lab != nil && rec.Lab.Saturated != "" {
					continue
				}
				if why := brokeBy(rec, cores); why != "" && p.Sweep && it.EtcdMembers == 0 {
					if _, ok := brokeAt[key]; !ok {
						brokeAt[key] = broke{pods: itemPods(it), why: why}
					}
				}
			}
		}
	}
	return runs, skipped
}

// brokeBy says why a run marks its design's breaking point, or "": it
// failed (to start, or to converge within its limit), or it is an idle
// run whose apiserver needed more CPU a minute than the machine's cores,
// or that no longer did what an idle cluster of its design must.
func brokeBy(rec RunRecord, cores int) string {
	if rec.Outcome == nil {
		return "the run failed"
	}
	if rec.Scenario != "idle" {
		return ""
	}
	return idleBroke(rec.Variant, rec.Size, scenario.ResultMap(rec.Outcome.Results), cores)
}

// idleBroke says why idle's figures mark a breaking point, or "". The
// apiserver cannot use more CPU than the machine has, so a design whose
// idle cost has passed the cores shows it first in the work left undone:
// the 2014 manager's ticks fall behind, and its LISTs a minute fall short
// of the 6·(1 + M) its period asks for. That is a speed, which idle's
// expectation leaves to the benchmark (it judges the LISTs per tick, which
// a busy machine does not change); the sweep judges it here, on a machine
// it has calibrated.
func idleBroke(variant string, sz scenario.Size, values map[string]float64, cores int) string {
	cpu := formatNumber(values["apiserver_cpu_per_min"])
	if c := values["apiserver_cpu_per_min"]; cores > 0 && c > 60*float64(cores) {
		return fmt.Sprintf("the idle apiserver needed %s CPU s a minute, more than the %d cores' %d", cpu, cores, 60*cores)
	}
	sc, err := scenario.Get("idle")
	if err != nil || sz.Period <= 0 {
		return ""
	}
	if err := sc.Script.Expect(designOf(variant), sz, values); err != nil {
		return fmt.Sprintf("idle no longer did what its design must (%v), with the apiserver at %s CPU s a minute", err, cpu)
	}
	if want := time.Minute.Seconds() / sz.Period.Seconds() * float64(1+sz.Controllers); is2014(variant) && values["lists_per_min"] < 0.7*want {
		return fmt.Sprintf("its ticks fell behind: %.1f LISTs a minute, where its %v period asks for %.0f, with the apiserver at %s CPU s a minute",
			values["lists_per_min"], sz.Period, want, cpu)
	}
	return ""
}

// exhaustionSigns are what a process logs when it runs out of file
// descriptors or of loopback ports: the 2014 manager opens one
// connection per pod it creates, all at once.
var exhaustionSigns = []struct{ text, says string }{
	{"too many open files", "file descriptors ran out"},
	{"cannot assign requested address", "loopback ports ran out (one connection per pod, from one address to one port)"},
}

// relistSign is what the hollow nodes log when their pod watch has fallen
// more than etcd's window of 1000 events behind, and they list every pod
// again: under a storm of writes each relist makes them fall further
// behind, and pods wait to be bound and started, whatever the manager does.
const relistSign = "is too old to watch from"

// exhaustion names, for the error of a failed run, the resources its
// processes' logs say ran out, and how often the hollow nodes fell out of
// etcd's event window; or "".
func exhaustion(runDir string) string {
	logs, _ := filepath.Glob(filepath.Join(runDir, "*.log"))
	seen := map[string]bool{}
	relists := 0
	for _, name := range logs {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		hollow := filepath.Base(name) == "hollow-node.log"
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			line := bytes.ToLower(sc.Bytes())
			for _, s := range exhaustionSigns {
				if !seen[s.says] && bytes.Contains(line, []byte(s.text)) {
					seen[s.says] = true
				}
			}
			if hollow && bytes.Contains(line, []byte(relistSign)) {
				relists++
			}
		}
		f.Close()
	}
	out := ""
	for _, s := range exhaustionSigns {
		if seen[s.says] {
			out += fmt.Sprintf("; the logs say %q: %s", s.text, s.says)
		}
	}
	if relists > 0 {
		out += fmt.Sprintf("; the hollow nodes' pod watch fell out of etcd's window of 1000 events %d times, and each time they listed every pod again before binding or starting more", relists)
	}
	return out
}

// externalEtcd starts the external etcd cluster an item asks for in the
// run's directory; stop kills it and deletes its data. With no members
// asked for it starts nothing.
func (r *Runner) externalEtcd(runDir string, members int) (urls []string, stop func(), err error) {
	if members == 0 {
		return nil, func() {}, nil
	}
	if r.etcdCluster == nil {
		return nil, nil, fmt.Errorf("no way to start an external etcd cluster")
	}
	return r.etcdCluster(filepath.Join(runDir, "etcd3"), members)
}

// startEtcdCluster starts an external etcd cluster of members with its
// data under dir; stop kills it and deletes the data.
func startEtcdCluster(dir string, members int) ([]string, func(), error) {
	c, err := stack.StartEtcdCluster(dir, members)
	if err != nil {
		return nil, nil, err
	}
	return c.ClientURLs(), func() {
		c.Close()
		os.RemoveAll(dir)
	}, nil
}
