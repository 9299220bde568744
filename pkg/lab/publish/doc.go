// Package publish runs every page the laboratory publishes into
// examples/ at one commit (make publish, rcbench publish), resumably: it
// plans the pages of pkg/lab/published that are not published at this
// commit yet, says how long each should take, runs their rcbench
// commands in order, and stamps each page and rewrites the README's
// lines about the pages as it finishes.
//
// It is the laboratory's top layer, above bench, demo and annotate,
// whose runs it starts as rcbench commands; nothing but cmd/rcbench
// imports it.
//
// Ours: not part of 2014.
package publish
