package publish

import "github.com/kube-rewind/kube-rewind/pkg/lab/published"

var _ = allow(
	// A sweep run's limit: a base for the cluster's start and stop, a
	// share a pod, and for idle the settling's most.
	published.Mirror{Dir: "pkg/lab/bench/sweep", Name: "sweepRunBase", Form: "{min} min"},
	published.Mirror{Dir: "pkg/lab/bench/sweep", Name: "sweepPerPod", Form: "{ms} ms"},
	published.Mirror{Dir: "pkg/lab/bench/sweep", Name: "sweepSettleMax", Form: "{min} min"},
	// How often the sampler reads a kube-controller-manager.
	published.Mirror{Dir: "pkg/lab/scenario", Name: "kubeControllerManagerEvery", Form: "{ms} ms"},
)
