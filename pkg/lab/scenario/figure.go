package scenario

// What a scenario shows beyond its results: the figure talk mode measures
// live (LiveFigure), and the figures the benchmark's results page puts in
// its headline table (Headline). Each is computed the way its result is,
// from the controller-managers' own series, over the same steps.

// LiveFigure is how talk mode's page measures, live, the figure a
// scenario is about (Scenario.Figure): in the same way as its result, over
// the same steps.
type LiveFigure struct {
	// Measure is what the page counts.
	Measure Measure
	// Label is what the page's tile and chart call the figure.
	Label string
	// Unit follows the value on the tile, when the label does not say it.
	Unit string
	// Step is the step the figure measures, 1-based; 0 means the whole
	// run.
	Step int
	// Onward measures from Step to the end of the run, not Step alone.
	Onward bool
}

// Measure is a way the live page measures a figure. Its value is what a
// recording and the page's script call it, so a value never changes once
// a recording holds it.
type Measure string

const (
	// MeasurePeakGoroutines is the controller-managers' largest goroutine
	// count over the step.
	MeasurePeakGoroutines Measure = "pg"
	// MeasureListsPerMin is the managers' LISTs a minute over the step.
	MeasureListsPerMin Measure = "lm"
	// MeasureLists is the managers' LISTs over the step.
	MeasureLists Measure = "ls"
	// MeasureReplacement is the median time from a pod's deletion to its
	// replacement running, over every replacement so far.
	MeasureReplacement Measure = "rp"
	// MeasurePostsPerMin is the managers' pod POSTs a minute over the
	// step.
	MeasurePostsPerMin Measure = "pm"
	// MeasureWatches is the managers' WATCH requests over the step.
	MeasureWatches Measure = "ws"
	// MeasureCreated is the pods created since the cluster started.
	MeasureCreated Measure = "cr"
	// MeasureCreatedSince is the pods created since the step started.
	MeasureCreatedSince Measure = "cs"
	// MeasureExtra is the pods created beyond need.
	MeasureExtra Measure = "ex"
	// MeasureDeleted is the pods deleted over the step.
	MeasureDeleted Measure = "dl"
	// MeasureRunningDeleted is the running pods lost over the step: the
	// running count at its start less the running count now.
	MeasureRunningDeleted Measure = "rd"
	// MeasureToRunning is the seconds from the step's start until every
	// pod the step asked for runs.
	MeasureToRunning Measure = "rt"
)

// Headline is one figure a scenario puts in the headline table of the
// benchmark's results page, at every size it ran.
type Headline struct {
	// Result names the figure, as the scenario's results name it.
	Result string
	// Label says what the figure is, for a reader who has not read the
	// scenario's table.
	Label string
	// LargestOnly keeps the figure at the scenario's largest size only.
	LargestOnly bool
}
