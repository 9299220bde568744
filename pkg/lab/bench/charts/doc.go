// Package charts draws the charts of the benchmark's pages from its
// results, as SVG (and PNG on request) with gonum/plot: pods running,
// goroutines and requests over time for each scenario and size, every
// figure side by side, the calibration, a sweep's cost against size, and
// the history's timeline. Each variant keeps its colour in every chart.
//
// Ours: not part of 2014.
package charts
