// Package history is make history (rcbench history): every change of
// pkg/history that today's manager can run without is measured with and
// without it, on the scenario that shows it; then a timeline removes the
// changes one after another, newest first, next to the 2014 manager. It
// shares the benchmark's runner, aggregation, tables and charts; its
// report is pkg/lab/bench/report's history.go.
//
// Ours: not part of 2014.
package history
