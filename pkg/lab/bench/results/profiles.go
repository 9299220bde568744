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
}

// ProfileRow is one function: the CPU seconds spent in it (flat) and in
// it and what it called (cum).
type ProfileRow struct {
	Function string  `json:"function"`
	Flat     float64 `json:"flat"`
	Cum      float64 `json:"cum"`
}
