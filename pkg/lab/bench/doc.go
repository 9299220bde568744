// Package bench measures the two controller-manager designs against each
// other: it calibrates the stack's ceiling (raw etcd writes and apiserver
// pod creates at 1, 64 and 256 concurrent clients), runs each scenario of
// pkg/lab/scenario several times on fresh, identical clusters, alternating the
// variants, and writes what it measured as a Markdown and an HTML report
// with charts, a JSON file of every figure, one CSV of raw samples per run
// and benchstat-compatible text. make bench runs it through rcbench.
//
// The sweep (sweep*.go, rcbench bench -sweep) runs scale-up and idle over
// a range of sizes, each run bounded by a limit that grows with its pods
// and the whole by a budget, stops running a design's larger sizes once it
// breaks, and can add a size run on a three-member external etcd cluster.
//
// The history run (history*.go, make history) uses the same machinery to
// measure each change of pkg/history: today's manager with and without
// it, and a timeline removing the changes newest first.
//
// Ours: not part of 2014, which had no benchmark of its control loop; the
// calibration mirrors the table of etcd's own v2 benchmarks.
package bench
