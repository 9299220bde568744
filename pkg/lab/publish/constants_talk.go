package publish

import "github.com/kube-rewind/kube-rewind/pkg/lab/published"

// The talk's and the history's prose: the lengths of the scenarios that
// play only live (no recording in examples/talk gives theirs), and the
// restart scenario's slowed pod LIST.
var _ = allow(
	// partial-scale-down's length at talk size.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "partialScaleDownTalkLength", Form: "{s} s"},
	// crash's length at talk size.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "crashTalkLength", Form: "{s} s"},
	// recreate's length at talk size.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "recreateTalkLength", Form: "{s} s"},
	// watch-window's length at talk size.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "watchWindowTalkLength", Form: "{s} s"},
	// How much longer a LIST of pods takes after restart's restart.
	published.Mirror{Dir: "pkg/lab/scenario/scripts", Name: "slowPodList", Form: "{s} s"},
)
