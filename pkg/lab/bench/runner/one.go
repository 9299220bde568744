package runner

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

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
func (r *Runner) externalEtcd(runDir string, members int) (urls []string, read stack.ReadMember, stop func(), err error) {
	if members == 0 {
		return nil, stack.ReadMember{}, func() {}, nil
	}
	if r.EtcdCluster == nil {
		return nil, stack.ReadMember{}, nil, fmt.Errorf("no way to start an external etcd cluster")
	}
	return r.EtcdCluster(filepath.Join(runDir, "etcd3"), members)
}

// runOne runs a scenario once in its own directory and keeps its samples.
func (r *Runner) runOne(ctx context.Context, dir string, it Item, v scenario.Variant, i, n, total int, limit time.Duration) results.RunRecord {
	rel := filepath.Join("runs", fmt.Sprintf("%s_%s_%s_%d", it.Scenario.Name, results.Slug(it.Size.Label), v.Name, i+1))
	runDir := filepath.Join(dir, rel)
	rec := results.RunRecord{Scenario: it.Scenario.Name, Size: it.Size, Variant: v, Index: i, Dir: rel}
	r.Say("[%*d/%d] %s %s %s, run %d of %d", len(strconv.Itoa(total)), n, total, it.Scenario.Name, it.Size.Label, v.Name, i+1, it.Runs)
	began := r.Now()
	runCtx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	sopts := scenario.Options{
		BinDir:    r.Opts.BinDir,
		Dir:       runDir,
		Seed:      r.Opts.Seed,
		Profile:   r.Opts.Profile,
		LabReader: r.Opts.LabReader,
		Say:       func(format string, args ...interface{}) { r.Say("        "+format, args...) },
	}
	sopts.OriginalDir = r.Opts.originalDir()
	sopts.TodayDir = r.Opts.todayDir()
	sopts.Kubeconfig, sopts.Namespace = r.Opts.Kubeconfig, r.Opts.Namespace
	var out *scenario.Outcome
	urls, read, stopEtcd, err := r.externalEtcd(runDir, it.EtcdMembers)
	if err == nil {
		sopts.EtcdServers, sopts.ReadMember = urls, read
		out, err = r.Scenarios.Run(runCtx, it.Scenario, v, it.Size, sopts)
		stopEtcd()
	}
	rec.Seconds = r.Now().Sub(began).Seconds()
	// The etcd data of a finished run is of no further use and can take
	// hundreds of megabytes; the logs stay beside the samples.
	os.RemoveAll(filepath.Join(runDir, "etcd"))
	os.RemoveAll(filepath.Join(runDir, "etcd3"))
	if err != nil && limit > 0 && ctx.Err() == nil && runCtx.Err() == context.DeadlineExceeded {
		rec.TimedOut = true
		err = fmt.Errorf("not finished within its limit of %s: %v", results.FormatDuration(limit), err)
	}
	rec.Lab = labShare(out)
	if rec.TimedOut && out != nil {
		err = fmt.Errorf("%v%s", err, machineUse(out.Rec, rec.Lab, it.Size, runtime.NumCPU()))
		if out.Rec != nil {
			rec.RunningAtLimit = out.Rec.Last(sampler.PodsRunning)
			rec.BoundAtLimit = out.Rec.Last(sampler.PodsActive) - out.Rec.Last(sampler.PodsUnscheduled)
		}
	}
	if profiles, perr := summarizeProfiles(rec, out, dir); perr != nil {
		r.Say("        cannot read the profiles: %v", perr)
	} else {
		rec.Profiles = profiles
	}
	os.RemoveAll(filepath.Join(runDir, "profiles"))
	if rec.Lab != nil && rec.Lab.Saturated != "" {
		r.Say("        the laboratory was saturated: %s", rec.Lab.Saturated)
	}
	// A failed run's samples stay too: they show how far it came, and
	// where it stalled.
	if out != nil && out.Rec != nil {
		if werr := report.WriteSamples(filepath.Join(runDir, "samples.csv"), out); werr != nil {
			r.Say("        cannot write the samples: %v", werr)
		}
	}
	if err != nil {
		rec.Err = err.Error() + exhaustion(runDir)
		if rec.Lab != nil && rec.Lab.Saturated != "" {
			rec.Err += "; the laboratory was saturated (" + rec.Lab.Saturated + "), so the failure is not the design's"
		}
		r.Say("        failed after %.1f s: %v", rec.Seconds, err)
		return rec
	}
	rec.Outcome = out
	rs, _ := results.Of(out)
	var parts []string
	for _, res := range rs {
		parts = append(parts, fmt.Sprintf("%s=%s", res.Name, results.FormatValue(res.Value, res.Unit)))
	}
	r.Say("        %.1f s: %s", rec.Seconds, strings.Join(parts, ", "))
	return rec
}
