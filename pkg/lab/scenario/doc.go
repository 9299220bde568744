// Package scenario is the framework every situation the project replays is
// written in: what a scenario is (its description, its sizes and its
// Script of steps, results and expectation), the variants it runs on, the
// cluster it needs and starts (our stack or today's), the Env its steps
// act and measure through, and Run, which plays one at one size. make
// bench runs scenarios many times and measures; talk mode runs one on both
// designs side by side and narrates; the tests run them small and check
// the outcomes.
//
// The scenarios themselves, and the list of them, are in
// pkg/lab/scenario/scripts, above this package: it imports scenario and
// scenario imports none of them.
//
// Ours: not part of 2014.
package scenario
