// Package runner runs the scenarios of a plan on fresh stacks and
// summarises them, for the bench, sweep and history runs: the options and
// the plan, one run of a scenario at a size in its own directory (on an
// external etcd cluster where the plan asks), the variants alternating,
// each run bounded by its limit and a sweep by its budget, the
// laboratory's share of each run, its profiles, and the figures of every
// scenario, size and variant over their runs. Measure does all of it for a
// plan and writes the report.
//
// Ours: not part of 2014.
package runner
