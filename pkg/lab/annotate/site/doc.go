// Package site is make docs's site as a whole, the top layer of
// pkg/lab/annotate: which directories of the repository get pages, the
// index that leads to every page with the architecture picture, the
// project's Markdown pages with their links rewritten to the site, and
// Build, which writes them all in order (cmd/annotate runs it).
//
// It imports pkg/lab/annotate, which renders the source, and
// pkg/lab/annotate/pages, the tour, the side-by-side pages and the
// history, and below the laboratory's tools pkg/lab/source, which reads
// it, and pkg/lab/published, the published pages and their stamps, for
// the index's list of them; nothing imports it but cmd/annotate.
//
// Ours: not part of 2014.
package site
