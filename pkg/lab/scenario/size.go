package scenario

import "time"

// Size scales a scenario.
type Size struct {
	// Label names the size in reports, e.g. "N=1000".
	Label string
	// Replicas is N: the pods of the controller under study.
	Replicas int
	// Controllers is M, for scenarios with many controllers.
	Controllers int
	// Period is the controller-managers' sync period (10 s, as 2014).
	Period time.Duration
	// Window is how long the scenario observes a steady state or a fault.
	Window time.Duration
	// Rate is a per-second rate (churn).
	Rate float64
	// PodsFirst, in idle, has the benchmark create the controllers and
	// their pods before any controller-manager runs (see
	// startControllersPodsFirst), instead of a manager scaling them up:
	// the cluster starts without one.
	PodsFirst bool
	// Crash, in crash, says what is killed (scripts.CrashAPIServer, …).
	Crash string `json:",omitempty"`
	// EtcdMembers, when set, runs the apiserver on an external etcd
	// cluster of that many members, which the scenario may kill.
	EtcdMembers int `json:",omitempty"`
}
