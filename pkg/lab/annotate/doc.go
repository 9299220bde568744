// Package annotate renders kube-rewind's source as an annotated website:
// one two-column page per Go file, prose on the left and code on the
// right, pages that set the 2014 and modern controllers side by side, and
// a walk that follows one pod through the stack.
//
// Ours: not part of 2014. As in docco, every run of whole-line //
// comments, above a declaration or inside a function body, is the prose
// of the code below it, up to the next run; the paragraph after the
// package clause introduces the page.
// go/parser finds comments and declarations, so excerpts follow the code.
// The output is static HTML: no JavaScript, fonts or fetches.
package annotate
