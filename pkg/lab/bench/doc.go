// Package bench measures the two controller-manager designs against each
// other: it calibrates the stack's ceiling (raw etcd writes and apiserver
// pod creates at 1, 64 and 256 clients), runs each scenario of
// pkg/lab/scenario several times on fresh clusters, alternating variants,
// and writes a Markdown and an HTML report with charts, RESULTS.md (the
// run in one page, to commit), results.json, raw samples per run and
// benchstat text. The history run (history*.go) measures each change of
// pkg/history the same way. The sweep (sweep*.go) runs scale-up and idle
// over a range of sizes, each run bounded by a limit that grows with its
// pods and the whole by a budget, stops a design's larger sizes once it
// breaks, and can add a size on a three-member external etcd cluster.
// listcost.go times LISTs of every pod on a large bare apiserver, for
// binaries built from different commits (rcbench listcost).
//
// Ours: not part of 2014, which had no benchmark of its control loop; the
// calibration mirrors the table of etcd's own v2 benchmarks.
package bench
