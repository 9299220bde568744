package publish

import "github.com/kube-rewind/kube-rewind/pkg/lab/published"

// The constants that examples/bench/README.md and
// examples/listcost/README.md write.
var _ = allow(
	// idle's quiet window at its quick size, which a default run takes.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "idleQuickWindow", Form: "{s} s"},
	// How often watch-drop's apiserver closes every watch.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "closeWatchesEvery", Form: "{s} s"},
	// How much slower a LIST of pods is after restart's restart.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "slowPodList", Form: "{s} s"},
	// The hollow nodes' binding backoff, first and longest, as v0.4's
	// scheduler's.
	published.Mirror{Dir: "pkg/lab/hollownode", Name: "retryFirst", Form: "{s} s"},
	published.Mirror{Dir: "pkg/lab/hollownode", Name: "retryMax", Form: "{s} s"},
	// How often the benchmark's pod counter reads a bound pod on v0.4's
	// apiserver.
	published.Mirror{Dir: "pkg/lab/sampler", Name: "readPeriod", Form: "{ms} ms"},
	// How long the 2014 apiserver waits before answering 202 with an
	// operation, and how long the 2014 client waits to poll it.
	published.Mirror{Dir: "pkg/apiserver", Name: "asyncOpWait", Form: "{ms} ms"},
	published.Mirror{Dir: "pkg/client", Name: "DefaultPollPeriod", Form: "{s} s"},
	// The pods rcbench listcost has the apiserver hold by default.
	published.Mirror{Dir: "cmd/rcbench", Name: "listCostPods", Form: "{} pods"},
)
