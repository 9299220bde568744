package publish

import "github.com/kube-rewind/kube-rewind/pkg/lab/published"

// allowed are the figures prose may write without citing a page: the
// constants of the designs and of the laboratory, each read from the Go
// declaration it mirrors, so that prose still writing an old value
// fails rcbench publish -check. Each file constants_*.go adds the ones
// of its part of the prose. Keep it short: a figure that was measured
// is a reference to its page, never a constant.
var allowed []published.Mirror

func allow(m ...published.Mirror) bool {
	allowed = append(allowed, m...)
	return true
}

// Constants are the allow-list's figures, read from the source at root.
func Constants(root string) ([]published.Constant, error) {
	return published.Constants(root, allowed)
}

var _ = allow(
	// The 2014 manager's synchronize tick and the endpoints
	// controller's util.Forever period.
	published.Mirror{Dir: "cmd/controller-manager", Name: "syncPeriod", Form: "{s} s"},
	// kube-controller-manager's default client limit.
	published.Mirror{Dir: "cmd/controller-manager", Name: "kubeAPIQPS", Form: "{} requests"},
	// The modern manager's burst cap.
	published.Mirror{Dir: "pkg/controller", Name: "BurstReplicas", Form: "{} pods"},
	// The sweep's sizes.
	published.Mirror{Dir: "pkg/lab/bench/sweep", Name: "sweepSizes", Form: "{} pods"},
)
