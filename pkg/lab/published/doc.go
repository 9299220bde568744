// Package published knows the pages that the laboratory's runs publish
// into examples/ (the benchmark, the originals beside our ports, the
// sweep, the history, the LIST cost, the talk recordings and the deck):
// what each is, the command that writes it, and the packages and
// binaries whose change would alter its figures. From each page's stamp
// in examples/published.json (its commit) it says, with git, whether any
// of those changed since the page was measured, for the README's "The
// last published runs" (rcbench publish -readme) and for make docs; and
// it finds what in a published file names the machine that wrote it.
//
// It also reads the pages for their figures (Sheet), so that prose cites
// them rather than copying them: a Reference in a Markdown file names a
// figure of a page, FillProse writes its value from the page, and
// CheckProse (rcbench publish -check) fails on a value that is not the
// page's and on a figure that looks measured but cites nothing, the
// allow-list's constants aside (Constant, Mirror: read from the Go
// declarations they mirror). Evident and CheckEvidence do the same for
// a reason in code that states the figure of an earlier page its
// prediction was made from.
//
// It sits below the laboratory's three tools, bench, demo and annotate,
// and imports none of them, so that annotate/site reads the pages'
// statuses without reaching into a tool; pkg/lab/publish, above all
// three, runs the pages (make publish) and stamps them here.
//
// Ours: not part of 2014.
package published
