// Package bench is make bench: it measures the two controller-manager
// designs against each other. Its plan picks the scenarios of
// pkg/lab/scenario/scripts, their sizes and variants, to fit a time budget; the
// calibration (calibrate*.go) first measures the stack's ceiling (raw etcd
// writes and apiserver pod creates at 1, 64 and 256 clients, a scale-up
// without a manager, and what a LIST of pods costs); then each scenario runs
// several times on fresh clusters, alternating variants, and the report is
// written: a Markdown and an HTML report with charts, RESULTS.md (the run in
// one page, to commit), results.json, raw samples per run and benchstat
// text.
//
// The benchmark is in layers, each importing only those below it:
//
//	results    what a run measured: the figures, their types and statistics
//	charts     the charts of the pages, drawn from the results
//	report     the pages and files a run writes, with their findings
//	runner     runs a plan's scenarios on fresh stacks and summarises them
//	bench      this run; sweep, history and listcost are the others, and
//	           none of the four imports another
//
// benchtest holds the fakes their tests share.
//
// Ours: not part of 2014, which had no benchmark of its control loop; the
// calibration mirrors the table of etcd's own v2 benchmarks.
package bench
