// Package demo is talk mode's page and its recordings (make demo): the
// page that shows one scenario on two identical clusters side by side, the
// 2014 controller-manager and today's, drawn to the window's size for any
// projector with no text under a share of its height (page.html's style
// sets it, the deck's browser test holds it); the frames it shows and the
// results table beneath them; the live page on loopback
// (LivePage, server-sent events); and a Recording of a run, a page that
// plays it by itself from disk, whose pictures WriteStills exports.
//
// Two packages sit above it and it imports neither: pkg/lab/demo/live
// runs talk mode (the clusters, the narration in the terminal, the
// replay), and pkg/lab/demo/deck makes a whole talk of recordings, which
// plays in the same page (DeckPage).
//
// Ours: not part of 2014.
package demo
