// Package publish knows the pages that the laboratory's runs publish into
// examples/ (the benchmark, the originals beside our ports, the sweep,
// the history, the LIST cost, the talk recordings and the deck): what each
// is, the command that writes it, and the packages and binaries whose
// change would alter its figures. From each page's stamp (its commit) it
// says, with git, whether any of those changed since the page was
// measured, for the README's "The last published runs" and for make docs;
// and it runs every page at one commit (make publish), resumably.
//
// Ours: not part of 2014.
package publish
