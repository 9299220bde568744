// Package site is make docs's site as a whole, the top layer of
// pkg/lab/annotate: which directories of the repository get pages, the
// index that leads to every page with the architecture picture, the
// project's Markdown pages with their links rewritten to the site, and
// Build, which writes them all in order (cmd/annotate runs it).
//
// It imports pkg/lab/annotate, which reads and renders the source, and
// pkg/lab/annotate/pages, the tour, the side-by-side pages and the
// history; nothing imports it but cmd/annotate.
//
// Ours: not part of 2014.
package site
