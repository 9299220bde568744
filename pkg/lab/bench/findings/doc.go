// Package findings judges a benchmark's summary: each finding states what
// the designs predict (the 2014 manager's goroutines grow with N, today's
// stay bounded; idle requests; extra pods; the pace against the
// benchmark's own manager-less reference; the spread over runs), checks it
// against the medians, and says why where it does not hold, each reason
// with the prediction it makes (checks.go), so that a reason the
// measurement contradicts is NOT EXPLAINED. It also says why a figure
// varies from run to run (noise.go) and which comparison a variant
// belongs to (variants.go: the design alone, or stack against stack).
//
// It sits between the results it reads and the report that writes what
// it found: it imports results and the scenario framework's variants,
// never the report or a run.
//
// Ours: not part of 2014.
package findings
