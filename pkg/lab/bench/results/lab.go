package results

// The laboratory's share of a run: what the hollow nodes (the stand-ins
// for the 2014 scheduler and kubelets) and the benchmark itself cost, and
// whether they kept up. A run in which they did not is flagged as
// saturated: it measured the laboratory as much as the design, and a
// sweep never counts its failure as the design's breaking point.

// LabShare is the laboratory's share of one run.
type LabShare struct {
	// Seconds is how long the run was sampled.
	Seconds float64 `json:"seconds"`
	// HollowCPU and RcbenchCPU are the CPU seconds the hollow-node process
	// and the benchmark's own process used over the run; HollowBusy and
	// RcbenchBusy the share of the run in which each used 90 % of a core
	// or more.
	HollowCPU   float64 `json:"hollowCPU"`
	HollowBusy  float64 `json:"hollowBusy"`
	RcbenchCPU  float64 `json:"rcbenchCPU"`
	RcbenchBusy float64 `json:"rcbenchBusy"`
	// HollowRelists and RcbenchRelists count the lists of every pod after
	// the first, whatever ended the watch before; HollowExpired and
	// RcbenchExpired those of them after a watch fell out of etcd's
	// window of 1000 events.
	HollowRelists  float64 `json:"hollowRelists"`
	HollowExpired  float64 `json:"hollowExpired"`
	RcbenchRelists float64 `json:"rcbenchRelists"`
	RcbenchExpired float64 `json:"rcbenchExpired"`
	// RcbenchResumes counts, on today's stack, the benchmark's pod
	// watches kube-apiserver ended that it took up again where they
	// were, without a list, as today's clients do.
	RcbenchResumes float64 `json:"rcbenchResumes,omitempty"`
	// Reader is how the laboratory read pods: ReaderLearner, through the
	// learner in a process of its own, ReaderWAL, from the member's
	// write-ahead log in a process of its own (its CPU is LearnerCPU's
	// then), ReaderMembers, from the members the apiserver stores in, or
	// ReaderAPIServer, through today's kube-apiserver.
	Reader string `json:"reader,omitempty"`
	// ReaderLag, with ReaderWAL, is the most seconds the reader's view
	// of the pods lagged the member's last write of its log, at a poll
	// that read entries.
	ReaderLag float64 `json:"readerLag,omitempty"`
	// ReaderOf, with ReaderWAL, says whose log it read.
	ReaderOf string `json:"readerOf,omitempty"`
	// LearnerCPU is the CPU seconds the learner's process used over the
	// run, LearnerBusy the share of the run it used 90 % of a core or
	// more. The apiserver CPU the learner adds (its embedded member
	// sending every entry to one more follower) is in the apiserver's
	// CPU and not counted apart: the same runs with ReaderMembers
	// measure it.
	LearnerCPU  float64 `json:"learnerCPU,omitempty"`
	LearnerBusy float64 `json:"learnerBusy,omitempty"`
	// AllCPU is the CPU seconds every process of the run used: the
	// apiserver (with its etcd), the managers, the hollow nodes, the
	// learner and rcbench; LearnerCPU's share of the run is its part.
	AllCPU float64 `json:"allCPU,omitempty"`
	// QueueEnd is the hollow nodes' work waiting at the end: events read
	// and not applied, pods waiting for a worker.
	QueueEnd float64 `json:"queueEnd"`
	// WatchLag is the most etcd indexes the hollow nodes' pod watch was
	// behind their own writes.
	WatchLag float64 `json:"watchLag"`
	// Saturated says why the laboratory did not keep up, or is empty.
	Saturated string `json:"saturated,omitempty"`
	// Nodes names the processes that play the nodes where they are not
	// the hollow nodes: on today's stack, KWOK and kube-scheduler, whose
	// CPU HollowCPU then sums and whose busier one HollowBusy gives. The
	// hollow nodes' own counters (relists, work waiting, watch lag) have
	// no counterpart there and are not measured.
	Nodes string `json:"nodes,omitempty"`
}

// The ways the laboratory reads pods (LabShare.Reader).
const (
	ReaderLearner = "learner"
	ReaderWAL     = "wal"
	ReaderMembers = "members"
	// ReaderAPIServer is today's stack's: the pods read through
	// kube-apiserver, as any of its clients reads them.
	ReaderAPIServer = "apiserver"
)

// LearnerShare is the learner's share of all the CPU the run's processes
// used, or 0 when either is unknown.
func (l LabShare) LearnerShare() float64 {
	if l.AllCPU <= 0 {
		return 0
	}
	return l.LearnerCPU / l.AllCPU
}

// CoresShare is the share of what cores gave over the run that all the
// run's processes used (AllCPU), or 0 when either is unknown.
func (l LabShare) CoresShare(cores int) float64 {
	if l.Seconds <= 0 || cores <= 0 {
		return 0
	}
	return l.AllCPU / (float64(cores) * l.Seconds)
}

// LabRun is the laboratory's share of one run, as the summary keeps it.
type LabRun struct {
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Variant  string `json:"variant"`
	Run      int    `json:"run"`
	Failed   bool   `json:"failed,omitempty"`
	LabShare
}
