package publish

import "github.com/kube-rewind/kube-rewind/pkg/lab/published"

// The constants the READMEs under cmd/, pkg/ and api/ write.
var _ = allow(
	// How old the apiserver's copy of the minions may be, v0.4's
	// -minion_cache_ttl.
	published.Mirror{Dir: "pkg/master", Name: "DefaultMinionCacheTTL", Form: "{s} s"},
	// How long a write waits before it is answered 202 with an operation.
	published.Mirror{Dir: "pkg/apiserver", Name: "asyncOpWait", Form: "{ms} ms"},
	// How long the apiserver waits for a request body.
	published.Mirror{Dir: "pkg/apiserver", Name: "DefaultBodyReadTimeout", Form: "{s} s"},
	// How often the 2014 client polls an operation.
	published.Mirror{Dir: "pkg/client", Name: "DefaultPollPeriod", Form: "{s} s"},
	// The memory every hollow node registers, v0.4's -node_memory.
	published.Mirror{Dir: "pkg/lab/hollownode", Name: "minionMemoryGiB", Form: "{} GiB"},
)
