// Package bench measures the two controller-manager designs against each
// other: it calibrates the stack's ceiling (raw etcd writes and apiserver
// pod creates at 1, 64 and 256 clients), runs each scenario of
// pkg/lab/scenario several times on fresh clusters, alternating variants,
// and writes a Markdown and an HTML report with charts, RESULTS.md (the
// run in one page, to commit), results.json, raw samples per run and
// benchstat text. The history run (history*.go) measures each change of
// pkg/history the same way.
//
// Ours: not part of 2014, which had no benchmark of its control loop; the
// calibration mirrors the table of etcd's own v2 benchmarks.
package bench
