// Package demo is talk mode: it runs one scenario of pkg/lab/scenario on two
// identical clusters at once, one with the 2014 controller-manager and one
// with today's, step by step. It narrates each step in the terminal with
// live counters for both designs, serves a live page on loopback that shows
// the two side by side (pods as coloured squares, request rates,
// goroutines, a rolling chart) updated by server-sent events, and ends with
// the scenario's results for both designs in one table. make demo runs it.
//
// A run can be recorded (Options.Record): every frame the page was sent,
// with the scenario's words and the results. Replay plays a recording on
// the same page with the same narration, without clusters, and the page
// written beside the recording plays it by itself from disk.
//
// The scenarios themselves, their steps and their sentences, live in
// pkg/lab/scenario, once, for the benchmark, the tests and this package.
//
// Ours: not part of 2014.
package demo
