package results

// Finding is one claim the report checks against what it measured.
type Finding struct {
	Topic string `json:"topic"`
	// Expect is what the designs predict.
	Expect string `json:"expect"`
	// Measured says what the runs showed, with numbers.
	Measured string `json:"measured"`
	// Holds says whether the measurement agrees with Expect; nil when it
	// was not measured or there is nothing to agree with.
	Holds *bool `json:"holds"`
	// Verdict is the finding in one line, for a reader who scans.
	Verdict string `json:"verdict"`
	// Why explains a finding that does not hold: which check failed and
	// what stands in the way, with what that reason predicts and what was
	// measured. Every NO has one.
	Why string `json:"why,omitempty"`
	// Explained is set on a finding that does not hold: true when every
	// failed check has a reason whose prediction the measurement bears
	// out, false when one has none or misses it (NOT EXPLAINED on the
	// page).
	Explained *bool `json:"explained,omitempty"`
	// Judgements are the failed checks' reasons held to their predictions.
	Judgements []Judgement `json:"judgements,omitempty"`
}
