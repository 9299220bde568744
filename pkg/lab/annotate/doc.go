// Package annotate renders kube-rewind's source as an annotated website
// (make docs): one two-column page per Go file, prose on the left and code
// on the right, pages that set the 2014 and modern controllers side by
// side, and a walk that follows one pod through the stack.
//
// It reads the source through pkg/lab/source, which splits Go files into
// sections and cuts excerpts by declaration name (File, Ref, Cut); that
// package sits below the laboratory's tools, and talk mode's deck cuts
// its code cards with it too. Above it, make docs is in three layers, each importing only those below
// it. This package is the bottom one: it holds the tree of packages read
// (Tree), renders prose, code and history citations, writes a file's
// annotated page and each excerpt, and holds the templates and the
// stylesheet every page shares (Writer, Templates); it imports neither
// layer above. On it, pkg/lab/annotate/pages makes the pages built from
// excerpts: the walk, the side-by-side pages and the history. On top,
// pkg/lab/annotate/site says which directories get pages, writes the
// index and the Markdown pages, and builds the whole site (cmd/annotate
// runs it).
//
// Ours: not part of 2014. As in docco, every run of whole-line //
// comments, above a declaration or inside a function body, is the prose
// of the code below it, up to the next run; the paragraph after the
// package clause introduces the page.
// go/parser finds comments and declarations, so excerpts follow the code.
// The output is static HTML: no JavaScript, fonts or fetches.
package annotate
