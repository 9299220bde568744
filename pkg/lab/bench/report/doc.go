// Package report writes what a benchmark measured: report.md and
// report.html (built once as a document and written both ways), the
// results page RESULTS.md, results.json, the benchstat text and each run's
// samples, and the history's report. Its sections are the findings
// (package findings: each checked against what the designs predict and
// every NO said why); the calibration; "Checked against the originals" (originals.go), each port
// beside the original it follows with the reason of every difference; a
// sweep's breaking points; the laboratory's share; and the profiles. It
// reads the results, judges with the findings and draws with the charts.
//
// Every reason it gives for a difference carries a results.Prediction:
// the direction and size of the difference the reason accounts for, in
// the figure's unit. A difference outside it, the other way, or of a
// figure in another unit (a reason moved to the wrong figure) is NOT
// EXPLAINED on the page, with the prediction and the measurement.
//
// Ours: not part of 2014.
package report
