// Package live runs talk mode (make demo, rcbench demo and replay): one
// scenario of pkg/lab/scenario/scripts on two identical clusters at once, the
// 2014 controller-manager and today's, step by step, narrated in the
// terminal with live counters and shown on pkg/lab/demo's live page,
// ending with both designs' results in one table; a run can be recorded
// (Options.Record), and Replay plays a recording on the live page without
// clusters. It imports pkg/lab/demo, which never imports it.
//
// Ours: not part of 2014.
package live
