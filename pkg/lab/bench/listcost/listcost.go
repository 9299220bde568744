package listcost

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/report"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/results"
	"github.com/kube-rewind/kube-rewind/pkg/lab/bench/runner"
	"github.com/kube-rewind/kube-rewind/pkg/lab/mdtable"
	"github.com/kube-rewind/kube-rewind/pkg/lab/sampler"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stats"
)

// Options say what "rcbench listcost" measures.
type Options struct {
	// Pods is how many pods the apiserver holds; Lists how many LISTs of
	// all of them are timed, one after the other.
	Pods, Lists int
	// Binaries are the apiserver binaries measured, in turn (the first
	// is the one built from this tree).
	Binaries []Binary
	// Profile saves a CPU profile of the LISTs and the allocations they
	// made, for a binary that has -profiling_address.
	Profile bool
}

// Binary is an apiserver binary to measure: Dir holds it, Name says
// what it was built from.
type Binary struct {
	Name, Dir string
}

// Result is the LIST cost of one apiserver binary.
type Result struct {
	Name   string `json:"name"`
	Binary string `json:"binary"`
	Pods   int    `json:"pods"`
	// CreateSeconds is how long the 64 clients took to create the pods.
	CreateSeconds float64 `json:"createSeconds"`
	Bytes         int     `json:"bytes"`
	// Seconds is each LIST's wall time, in order.
	Seconds []float64 `json:"seconds"`
	// Per LIST, from the apiserver's /metrics and /proc: CPU seconds,
	// bytes and objects allocated, minor page faults.
	CPUSeconds  float64 `json:"cpuSeconds"`
	AllocBytes  float64 `json:"allocBytes"`
	Allocs      float64 `json:"allocs"`
	MinorFaults float64 `json:"minorFaults"`
	// RSSBytes is the apiserver's resident memory after the last LIST.
	RSSBytes float64 `json:"rssBytes"`
	// Profiles are the files saved with Profile, relative to the report.
	Profiles []string `json:"profiles,omitempty"`
}

// Report is what "rcbench listcost" writes.
type Report struct {
	Date        time.Time  `json:"date"`
	Commit      string     `json:"commit"`
	Cores       int        `json:"cores"`
	LoadBefore  [3]float64 `json:"loadBefore"`
	LoadAfter   [3]float64 `json:"loadAfter"`
	WallSeconds float64    `json:"wallSeconds"`
	Results     []Result   `json:"results"`
}

// listCostSetup says how a LIST's cost is measured.
const listCostSetup = "For each binary in turn: a fresh apiserver (embedded etcd, -etcd_fast, as in every scenario), no " +
	"hollow nodes and no controller-manager, so no pod is bound and the v0.4 read path computes no status. The " +
	"benchmark creates the pods from 64 clients, as the manager would (the replication controllers' template, no " +
	"id), waits 2 s, then sends one GET /api/v1beta1/pods at a time and reads each answer whole. CPU, allocations " +
	"(process_cpu_seconds_total, go_memstats_alloc_bytes_total, go_memstats_mallocs_total) and minor page faults " +
	"(`/proc/<pid>/stat`) are the apiserver process's, embedded etcd included, read before the first LIST and after " +
	"the last and divided by the LISTs. The benchmark's own reading of the answers is not counted."

// Run measures LISTs of Pods pods on each binary and writes
// listcost.json and RESULTS.md into a timestamped directory under Out.
func Run(ctx context.Context, r *runner.Runner, o Options) (string, *Report, error) {
	started, dir, err := r.Start()
	if err != nil {
		return "", nil, err
	}
	rep := &Report{Date: started, Commit: r.Commit(), Cores: runtime.NumCPU(), LoadBefore: runner.LoadAverage()}
	for i, bin := range o.Binaries {
		r.Say("apiserver %d of %d: %s (%s)", i+1, len(o.Binaries), bin.Name, bin.Dir)
		res, err := listCost(ctx, r, filepath.Join(dir, fmt.Sprintf("apiserver-%d", i+1)), bin, o)
		if err != nil {
			return dir, rep, fmt.Errorf("%s: %v", bin.Dir, err)
		}
		rep.Results = append(rep.Results, res)
	}
	rep.LoadAfter = runner.LoadAverage()
	rep.WallSeconds = r.Now().Sub(started).Seconds()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return dir, rep, err
	}
	if err := os.WriteFile(filepath.Join(dir, "listcost.json"), data, 0o644); err != nil {
		return dir, rep, err
	}
	if err := os.WriteFile(filepath.Join(dir, report.ResultsFile), []byte(Page(rep)), 0o644); err != nil {
		return dir, rep, err
	}
	return dir, rep, r.Publish(dir, report.ResultsFile, false)
}

// listCost measures one binary.
func listCost(ctx context.Context, r *runner.Runner, dir string, bin Binary, o Options) (Result, error) {
	binary := filepath.Join(bin.Dir, "apiserver")
	res := Result{Name: bin.Name, Binary: binary, Pods: o.Pods}
	cfg := stack.Config{BinDir: bin.Dir, Dir: dir, NoHollowNodes: true}
	profiling := ""
	var st *stack.Stack
	var err error
	if o.Profile && hasFlag(binary, "profiling_address") {
		var port int
		st, port, err = stack.StartWithPort(cfg, func(port int) []string {
			return []string{"-profiling_address=127.0.0.1:" + strconv.Itoa(port)}
		})
		profiling = "127.0.0.1:" + strconv.Itoa(port)
	} else {
		st, err = stack.Start(cfg)
	}
	if err != nil {
		return res, fmt.Errorf("starting the apiserver: %v", err)
	}
	defer func() {
		st.Stop()
		os.RemoveAll(filepath.Join(dir, "etcd"))
	}()
	c, err := client.New(&client.Config{Host: st.APIURL, Sync: true, UserAgent: "rcbench"})
	if err != nil {
		return res, err
	}
	began := time.Now()
	if err := runner.CreatePods(ctx, c, "listcost", o.Pods); err != nil {
		return res, err
	}
	res.CreateSeconds = time.Since(began).Seconds()
	r.Say("  created %d pods in %.1f s", o.Pods, res.CreateSeconds)
	time.Sleep(2 * time.Second)

	pid := st.APIServer.Pid()
	before, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		return res, err
	}
	faults, faultsOK := sampler.MinorFaults(pid)
	httpClient := &http.Client{Transport: &http.Transport{}}
	defer httpClient.CloseIdleConnections()
	url := st.APIURL + "/api/v1beta1/pods"
	var profile chan error
	for i := 0; i < o.Lists; i++ {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		if i == 1 && profiling != "" {
			// The CPU profile covers the LISTs after the first, for as long
			// as the first took times their number: pprof's profile runs
			// for whole seconds given in advance.
			window := int(res.Seconds[0]*float64(o.Lists-1)) + 1
			if err := sampler.SaveURL(ctx, "http://"+profiling+"/debug/pprof/allocs", filepath.Join(dir, "allocs-before.pb.gz")); err != nil {
				return res, err
			}
			profile = make(chan error, 1)
			go func() {
				profile <- sampler.SaveURL(ctx, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", profiling, window), filepath.Join(dir, "cpu.pb.gz"))
			}()
		}
		seconds, n, err := runner.TimedGet(httpClient, url)
		if err != nil {
			return res, err
		}
		res.Seconds = append(res.Seconds, seconds)
		res.Bytes = n
		r.Say("  LIST %d of %d: %.2f s", i+1, o.Lists, res.Seconds[i])
	}
	after, err := sampler.Scrape(st.APIURL + "/metrics")
	if err != nil {
		return res, err
	}
	if now, ok := sampler.MinorFaults(pid); ok && faultsOK {
		res.MinorFaults = float64(now-faults) / float64(o.Lists)
	}
	res.CPUSeconds = runner.PerRequest(before, after, "process_cpu_seconds_total", nil, o.Lists)
	res.AllocBytes = runner.PerRequest(before, after, "go_memstats_alloc_bytes_total", nil, o.Lists)
	res.Allocs = runner.PerRequest(before, after, "go_memstats_mallocs_total", nil, o.Lists)
	if _, rss, ok := sampler.ProcessUsage(pid); ok {
		res.RSSBytes = rss
	}
	if profile != nil {
		if err := sampler.SaveURL(ctx, "http://"+profiling+"/debug/pprof/allocs", filepath.Join(dir, "allocs-after.pb.gz")); err != nil {
			return res, err
		}
		if err := <-profile; err != nil {
			return res, fmt.Errorf("CPU profile: %v", err)
		}
		for _, f := range []string{"cpu.pb.gz", "allocs-before.pb.gz", "allocs-after.pb.gz"} {
			res.Profiles = append(res.Profiles, filepath.Join(filepath.Base(dir), f))
		}
	}
	return res, nil
}

// hasFlag reports whether binary -h lists -name.
func hasFlag(binary, name string) bool {
	out, _ := exec.Command(binary, "-h").CombinedOutput()
	return strings.Contains(string(out), "-"+name+" ")
}

// Page is the RESULTS.md of a listcost run.
func Page(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# LIST of every pod: what it costs the apiserver\n\n")
	fmt.Fprintf(&b, "Written by `rcbench listcost` (built from %s) on %s, %d cores, load average %.2f before and %.2f after; %s in all.\n\n",
		orUnknown(rep.Commit), rep.Date.UTC().Format("2006-01-02 15:04 MST"), rep.Cores, rep.LoadBefore[0], rep.LoadAfter[0], results.FormatDuration(time.Duration(rep.WallSeconds*float64(time.Second))))
	fmt.Fprintf(&b, "%s\n\n", listCostSetup)
	fmt.Fprintf(&b, "The median is over each apiserver's LISTs. %s\n\n", stats.Definition)
	costs := mdtable.Table{
		Header: []string{"apiserver", "pods", "answer", "LISTs", "median", "min", "max", "CPU / LIST", "allocated / LIST", "objects / LIST", "minor faults / LIST", "RSS after"},
		Align:  append([]mdtable.Align{mdtable.Left}, slices.Repeat([]mdtable.Align{mdtable.Right}, 11)...),
	}
	for _, res := range rep.Results {
		s := append([]float64(nil), res.Seconds...)
		sort.Float64s(s)
		if len(s) == 0 {
			continue
		}
		costs.Rows = append(costs.Rows, []string{
			res.Name, strconv.Itoa(res.Pods), fmt.Sprintf("%.1f MB", float64(res.Bytes)/1e6), strconv.Itoa(len(s)),
			fmt.Sprintf("%.2f s", stats.Median(s)), fmt.Sprintf("%.2f s", s[0]), fmt.Sprintf("%.2f s", s[len(s)-1]),
			fmt.Sprintf("%.2f s", res.CPUSeconds), fmt.Sprintf("%.0f MB", res.AllocBytes/1e6),
			fmt.Sprintf("%.0f k", res.Allocs/1e3), fmt.Sprintf("%.0f k", res.MinorFaults/1e3), fmt.Sprintf("%.0f MB", res.RSSBytes/1e6),
		})
	}
	mdtable.Write(&b, costs)
	fmt.Fprintf(&b, "Each LIST in order, in seconds:\n\n")
	for _, res := range rep.Results {
		var each []string
		for _, s := range res.Seconds {
			each = append(each, fmt.Sprintf("%.2f", s))
		}
		// The binary's path stays in results.json: on the page it would
		// name a scratch directory of the machine that ran it.
		fmt.Fprintf(&b, "- %s: %s; creating the pods took %.1f s\n", res.Name, strings.Join(each, ", "), res.CreateSeconds)
		if len(res.Profiles) > 0 {
			fmt.Fprintf(&b, "  - profiles (not published, in the run's directory): %s\n", strings.Join(res.Profiles, ", "))
		}
	}
	fmt.Fprintf(&b, "\nA LIST's wall time on a virtual machine depends on how many fresh pages the process touches: "+
		"the minor faults column. CPU per LIST is the steadier figure. The first LIST of a fresh process touches "+
		"the most.\n")
	return b.String()
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
