// Package demo is talk mode (make demo): one scenario of pkg/lab/scenario
// on two identical clusters at once, the 2014 controller-manager and
// today's, step by step, narrated in the terminal with live counters and
// shown side by side on a live page on loopback (server-sent events),
// ending with both designs' results in one table. The page is drawn to the
// window's size, for any projector, and lays every slide out to fit it,
// with no text under 3.3 % of its height. A run can be recorded
// (Options.Record) into a page that plays it by itself from disk; Replay
// plays a recording on the live page without clusters, and WriteStills
// exports a page's pictures. A whole talk of several recordings, a deck,
// is pkg/lab/demo/deck's, which imports this package and plays in the same
// page (DeckPage); this package never imports it.
//
// Ours: not part of 2014.
package demo
