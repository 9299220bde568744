package publish

import "github.com/kube-rewind/kube-rewind/pkg/lab/published"

// allowed are the figures prose and Go comments may write without citing
// a page: the constants of the designs and of the laboratory, each read
// from the Go declaration it mirrors (published.GoValue), so that prose
// still writing an old value fails rcbench publish -check, and a comment
// TestGoCommentsCopyNoMeasuredFigure. Keep it short: a figure that was
// measured is a reference to its page, never a constant; and a constant
// that adds nothing to a sentence is better left out of it ("its tick")
// than listed here.
var allowed = []published.Mirror{
	// The 2014 design (v0.4, as ported).
	// The manager's synchronize tick and the endpoints controller's
	// util.Forever period.
	{Dir: "cmd/controller-manager", Name: "syncPeriod", Form: "{s} s"},
	// How old the apiserver's copy of the minions may be, v0.4's
	// -minion_cache_ttl.
	{Dir: "pkg/master", Name: "DefaultMinionCacheTTL", Form: "{s} s"},
	// How long a write waits before it is answered 202 with an
	// operation, and how often the 2014 client polls one.
	{Dir: "pkg/apiserver", Name: "asyncOpWait", Form: "{ms} ms"},
	{Dir: "pkg/client", Name: "DefaultPollPeriod", Form: "{s} s"},
	// How long the apiserver waits for a request body.
	{Dir: "pkg/apiserver", Name: "DefaultBodyReadTimeout", Form: "{s} s"},
	// The largest request body and request headers the apiserver reads,
	// and the longest watch event a client reads.
	{Dir: "pkg/apiserver", Name: "DefaultMaxRequestBytes", Form: "{MiB} MiB"},
	{Dir: "pkg/lab/publish", Name: "apiserverMaxHeaderBytes", Form: "{MiB} MiB"},
	{Dir: "pkg/watch/json", Name: "MaxEventBytes", Form: "{MiB} MiB"},
	// etcd's write-ahead log segments, as the embedded member cuts them
	// unless told otherwise.
	{Dir: "pkg/lab/publish", Name: "etcdWALSegmentBytes", Form: "{MB} MB"},

	// Today's design.
	// kube-controller-manager's default client limit.
	{Dir: "cmd/controller-manager", Name: "kubeAPIQPS", Form: "{} requests"},
	// The modern manager's burst cap.
	{Dir: "pkg/controller", Name: "BurstReplicas", Form: "{} pods"},

	// The laboratory.
	// The sweep's sizes, and a sweep run's limit: a base for the
	// cluster's start and stop, a share a pod, and for idle the
	// settling's most.
	{Dir: "pkg/lab/bench/sweep", Name: "sweepSizes", Form: "{} pods"},
	{Dir: "pkg/lab/bench/sweep", Name: "sweepRunBase", Form: "{min} min"},
	{Dir: "pkg/lab/bench/sweep", Name: "sweepPerPod", Form: "{ms} ms"},
	{Dir: "pkg/lab/bench/sweep", Name: "sweepSettleMax", Form: "{min} min"},
	// The pods rcbench listcost has the apiserver hold by default.
	{Dir: "cmd/rcbench", Name: "listCostPods", Form: "{} pods"},
	// How often the sampler reads a kube-controller-manager, and how
	// often the benchmark's pod counter reads a bound pod on v0.4's
	// apiserver.
	{Dir: "pkg/lab/scenario", Name: "kubeControllerManagerEvery", Form: "{ms} ms"},
	{Dir: "pkg/lab/sampler", Name: "readPeriod", Form: "{ms} ms"},
	// The CPU rate at which the laboratory counts a process as using a
	// full core; with its words, since a share alone is too common a
	// figure (only Go comments can write it uncited, see
	// published.UncitedInGo).
	{Dir: "pkg/lab/bench/runner", Name: "busyCore", Form: "{%} % of a core"},
	// The hollow nodes: the memory each registers (v0.4's
	// -node_memory), and their binding backoff, first and longest, as
	// v0.4's scheduler's.
	{Dir: "pkg/lab/hollownode", Name: "minionMemoryGiB", Form: "{} GiB"},
	{Dir: "pkg/lab/hollownode", Name: "retryFirst", Form: "{s} s"},
	{Dir: "pkg/lab/hollownode", Name: "retryMax", Form: "{s} s"},

	// The scenarios.
	// idle's quiet window at its quick size; how often watch-drop's
	// apiserver closes every watch; how much slower a LIST of pods is
	// after restart's restart.
	{Dir: "pkg/lab/scenario/scripts", Name: "idleQuickWindow", Form: "{s} s"},
	{Dir: "pkg/lab/scenario/scripts", Name: "closeWatchesEvery", Form: "{s} s"},
	{Dir: "pkg/lab/scenario/scripts", Name: "slowPodList", Form: "{s} s"},
	// The lengths at talk size of the scenarios that play only live
	// (no recording in examples/talk gives theirs).
	{Dir: "pkg/lab/scenario/scripts", Name: "partialScaleDownTalkLength", Form: "{s} s"},
	{Dir: "pkg/lab/scenario/scripts", Name: "crashTalkLength", Form: "{s} s"},
	{Dir: "pkg/lab/scenario/scripts", Name: "recreateTalkLength", Form: "{s} s"},
	{Dir: "pkg/lab/scenario/scripts", Name: "watchWindowTalkLength", Form: "{s} s"},
}

// Constants of code outside the repository's declarations, which comments
// state: the limit on request headers that the apiserver's server sets
// (apiserver.NewHTTPServer, Go's http.DefaultMaxHeaderBytes, as v0.4 had
// it) and the size of etcd's write-ahead log segments
// (wal.SegmentSizeBytes). TestTheOthersConstantsAreAsMirrored holds
// each to the value it mirrors.
const (
	apiserverMaxHeaderBytes = 1 << 20
	etcdWALSegmentBytes     = 64 * 1000 * 1000
)

// Constants are the allow-list's figures, read from the source at root.
func Constants(root string) ([]published.Constant, error) {
	return published.Constants(root, allowed)
}
