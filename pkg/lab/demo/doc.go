// Package demo is talk mode (make demo): one scenario of pkg/lab/scenario
// on two identical clusters at once, the 2014 controller-manager and
// today's, step by step, narrated in the terminal with live counters and
// shown side by side on a live page on loopback (server-sent events),
// ending with both designs' results in one table. A run can be recorded
// (Options.Record); Replay plays a recording on the same page without
// clusters, and the page written beside it plays it from disk.
//
// Ours: not part of 2014.
package demo
