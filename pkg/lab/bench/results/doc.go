// Package results is what the benchmark's runs measured, as the report
// reads it and results.json and history.json hold it: each run's record,
// the figures of every scenario, size and variant over their runs, the
// calibration, the laboratory's share, the profiles and the findings. It
// also holds what every layer above reads figures with: their statistics
// (Summarize), the figures the benchmark derives from a run's samples (Of)
// and how a figure is written (FormatNumber). It is the bottom of
// pkg/lab/bench and imports none of its packages.
//
// Ours: not part of 2014.
package results
