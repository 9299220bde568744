package results

// ProfileTop is how many functions a profile's summary names.
const ProfileTop = 10

// ProfileSummary is what one process spent its CPU on during the span a
// run measures.
type ProfileSummary struct {
	Scenario string `json:"scenario"`
	Size     string `json:"size"`
	Variant  string `json:"variant"`
	Run      int    `json:"run"`
	Process  string `json:"process"`
	// Span names the marks the profile covers, From and To its seconds.
	Span     string  `json:"span"`
	From     float64 `json:"from"`
	To       float64 `json:"to"`
	Profiled float64 `json:"profiledSeconds"`
	// CPU is the CPU seconds the profile sampled.
	CPU float64 `json:"cpuSeconds"`
	// Path is the merged profile, relative to the report.
	Path string       `json:"path"`
	Top  []ProfileRow `json:"top"`
	// Activities are the profile's CPU by what the process was doing
	// (admission, encoding, TLS, the watch cache, ...): each sample
	// counts for the innermost of its frames that names an activity,
	// the runtime's own frames passed over (Flat holds the seconds,
	// Function the activity).
	Activities []ProfileRow `json:"activities,omitempty"`
	// Parts, for the laboratory's own process, are its CPU by job (the
	// etcd front, the meter, the pod reader, v0.4's status reads, the
	// scrapes), from the profiler label each job's goroutines carry
	// (stack.PartLabel); the samples of no job count as "the rest".
	Parts []ProfileRow `json:"parts,omitempty"`
}

// PartsRest names, among a profile's Parts, the samples of no job.
const PartsRest = "the rest (the scenario, the runner, the runtime)"

// ProfileRow is one function: the CPU seconds spent in it (flat) and in
// it and what it called (cum).
type ProfileRow struct {
	Function string  `json:"function"`
	Flat     float64 `json:"flat"`
	Cum      float64 `json:"cum"`
}
