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
	// what stands in the way. Every NO has one.
	Why string `json:"why,omitempty"`
}
