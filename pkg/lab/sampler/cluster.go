package sampler

import (
	"net/http"
	"strings"
	"time"

	"github.com/kube-rewind/kube-rewind/pkg/lab/etcdpods"
	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

// Cluster is what the sampler reads of a running cluster: our stack
// (OfStack) or today's (pkg/lab/scenario, today.go). Each source is read
// the same way on both, so that a figure means the same on both.
type Cluster interface {
	// Pods lists and watches the pods the counter follows.
	Pods() etcdpods.Pods
	// StatusOnRead says that only a read shows a pod's status (the
	// original v0.4 apiserver; see pods_read.go).
	StatusOnRead() bool
	// RequestsURL serves the apiserver's request counts by verb, resource
	// and client component, as our apiserver's /metrics names them: its
	// own /metrics, or the /metrics of a meter in front of it.
	RequestsURL() string
	// APIServer returns the apiserver's process id (0: none known, and
	// its metrics' own CPU and memory are read) and the etcd members the
	// stack started for it, which count with it as our embedded one does.
	APIServer() (pid int, etcd []int)
	// HollowNode returns the hollow-node process and its base URL (0 and
	// "" where the cluster has none).
	HollowNode() (pid int, url string)
	// Managers returns each controller-manager process's metrics base URL
	// and process id.
	Managers() []Endpoint
	// Others returns other processes to follow, by the series prefix
	// their CPU and RSS are recorded under ("kwok." gives kwok.cpu_seconds
	// and kwok.rss_bytes).
	Others() map[string]int
	// HTTPClient reads the managers' and hollow nodes' metrics.
	HTTPClient() *http.Client
	// CountsFromZero says that the apiserver's request counts began with
	// the cluster, before any controller-manager of it started: the
	// managers' request figures then count every request their
	// processes sent, start-up included. Where it is false (a cluster
	// that ran before the laboratory came), they count from the
	// sampler's first scrape, as every other counter does.
	CountsFromZero() bool
}

// Endpoint is a process and where its metrics are served.
type Endpoint struct {
	URL string
	Pid int
	// Every is how often the process is read at most; zero: at the
	// sampler's Intervals.Managers. Between two reads the sampler counts
	// the process with its last.
	Every time.Duration
}

// OfStack returns our stack as the sampler reads it.
func OfStack(st *stack.Stack) Cluster { return ours{st} }

type ours struct{ st *stack.Stack }

func (o ours) Pods() etcdpods.Pods { return o.st.LabPods() }

func (o ours) StatusOnRead() bool { return o.st.PodStatusOnRead() }

// kubelets is a cluster whose minions serve v0.4's kubelet API, where a
// pod's status is read (pods_read.go).
type kubelets interface {
	KubeletPort() int
}

func (o ours) KubeletPort() int { return o.st.KubeletPort() }

// walReader is a cluster the laboratory reads through a reader of the
// member's write-ahead log, which serves its lag at /metrics.
type walReader interface {
	WALReaderURL() string
}

func (o ours) WALReaderURL() string { return o.st.WALReaderURL() }

func (o ours) RequestsURL() string {
	if !o.st.CountsRequests() {
		return ""
	}
	return o.st.APIURL + "/metrics"
}

func (o ours) APIServer() (int, []int) {
	pid := 0
	for _, p := range o.st.Processes() {
		if p.Name == "apiserver" {
			pid = p.Pid()
		}
	}
	return pid, o.st.EtcdPids()
}

func (o ours) HollowNode() (int, string) {
	for _, p := range o.st.Processes() {
		if p.Name == "hollow-node" {
			return p.Pid(), o.st.HollowURL
		}
	}
	return 0, o.st.HollowURL
}

func (o ours) Managers() []Endpoint {
	urls, procs := o.st.ManagerURLList(), o.st.ManagerList()
	out := make([]Endpoint, len(urls))
	for i, u := range urls {
		out[i].URL = u
		if i < len(procs) && procs[i] != nil {
			out[i].Pid = procs[i].Pid()
		}
	}
	return out
}

// Others is the laboratory's learner, where the stack runs one in a
// process of its own: its CPU is the learner.cpu_seconds series.
func (o ours) Others() map[string]int {
	for _, p := range o.st.Processes() {
		if p.Name == stack.ProcessLabReader && p.Pid() > 0 {
			return map[string]int{strings.TrimSuffix(LearnerCPU, "cpu_seconds"): p.Pid()}
		}
	}
	return nil
}

func (o ours) HTTPClient() *http.Client { return scrapeClient }

// CountsFromZero: the stack started its apiserver (or the meter in front
// of the original one) before its controller-managers.
func (o ours) CountsFromZero() bool { return true }
