package scenario

// Result is one headline figure of a run.
type Result struct {
	Name  string  `json:"name"`
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
	// Process names the process whose figure this is (sampler.Process*):
	// whose CPU, memory, goroutines or sockets, whose requests. Empty
	// means the cluster as a whole, seen through the measuring side's pod
	// watch: pod counts and times to a state.
	Process string `json:"process,omitempty"`
	// LowerIsBetter says which way is good, for reports.
	LowerIsBetter bool `json:"lowerIsBetter"`
}

// ResultMap turns results into a name → value map.
func ResultMap(results []Result) map[string]float64 {
	m := make(map[string]float64, len(results))
	for _, r := range results {
		m[r.Name] = r.Value
	}
	return m
}
