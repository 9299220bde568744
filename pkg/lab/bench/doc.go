// Package bench measures the two controller-manager designs against each
// other: it calibrates the stack's ceiling (raw etcd writes and apiserver
// pod creates at 1, 64 and 256 concurrent clients), runs each scenario of
// pkg/lab/scenario several times on fresh, identical clusters, alternating the
// variants, and writes what it measured as a Markdown and an HTML report
// with charts, a JSON file of every figure, one CSV of raw samples per run
// and benchstat-compatible text. make bench runs it through rcbench.
//
// The history run (history*.go, make history) uses the same machinery to
// measure each change of pkg/history: today's manager with and without
// it, and a timeline removing the changes newest first.
//
// Ours: not part of 2014, which had no benchmark of its control loop; the
// calibration mirrors the table of etcd's own v2 benchmarks.
package bench
