package results

// TimelineScenario is the scenario the timeline runs at every step.
const TimelineScenario = "scale-up"

// TimelineStep is one point of the timeline: today's manager without
// Removed (and everything removed before it on the timeline).
type TimelineStep struct {
	// Variant names the runs: modern, before-<change> or legacy.
	Variant string `json:"variant"`
	// Label is the bar's label.
	Label string `json:"label"`
	// Off lists every change switched off at this step.
	Off []string `json:"off"`
}

// HistorySummary is everything a history run measured, as history.json
// holds it.
type HistorySummary struct {
	Summary
	// Changes has one row per measured change, in date order.
	Changes []ChangeResult `json:"changes"`
	// Unmeasured are the changes no run measures, and why.
	Unmeasured []ChangeResult `json:"unmeasured"`
	// TimelineSize is the scenario size of every timeline step.
	TimelineSize string           `json:"timelineSize"`
	Timeline     []TimelineResult `json:"timeline"`
}

// ChangeResult is one change's row: its figure with and without it.
type ChangeResult struct {
	Name     string   `json:"name"`
	Title    string   `json:"title"`
	Date     string   `json:"date"`
	Refs     []string `json:"refs"`
	What     string   `json:"what"`
	Scenario string   `json:"scenario,omitempty"`
	Size     string   `json:"size,omitempty"`
	Figure   string   `json:"figure,omitempty"`
	Unit     string   `json:"unit,omitempty"`
	// With and Without are nil where the runs failed.
	With    *Stats `json:"with,omitempty"`
	Without *Stats `json:"without,omitempty"`
	// Expected says which way the figure must move without the change.
	Expected string `json:"expected"`
	// Appeared is yes, within noise, no, or not measured.
	Appeared string `json:"appeared"`
	// Better says which side is better on the figure, and, when that is
	// without the change, what the change buys at that price.
	Better string `json:"better,omitempty"`
	// Note says why an effect did not appear, or why nothing was run.
	Note string `json:"note,omitempty"`
	// Judgement holds the reason an effect did not appear to what it
	// predicts of the two figures.
	Judgement *Judgement `json:"judgement,omitempty"`
}

// TimelineResult is one timeline step's figures.
type TimelineResult struct {
	TimelineStep
	Figures []Figure `json:"figures"`
}

// TimelineFigures are the figures the timeline draws.
var TimelineFigures = []string{"time_to_running", "manager_requests", "manager_lists", "peak_goroutines", "pod_creates", "status_writes"}
