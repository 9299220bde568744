// Package annotate renders kube-rewind's source as an annotated website:
// one two-column page per Go file, prose on the left and highlighted code on
// the right, plus pages that set the 2014 and modern controllers side by
// side, step by step, and a walk that follows one pod through the stack.
//
// Ours: not part of 2014. The layout follows docco and Go by Example: a run
// of whole-line // comments is prose for the code below it, up to the next
// such run, so the narrative comments the style guide asks for become the
// left column without any markup; inside a function body they are set as
// notes between its lines instead, so a function reads as one piece.
// End-of-line comments stay in the code, directives (//go:build) stay in
// the code, and the provenance paragraph
// after the package clause becomes the page's introduction. Code is parsed
// with go/parser, so a // inside a string literal is never mistaken for
// prose, and side-by-side excerpts are found by declaration name, so they
// follow the code when it changes. The output is static HTML with one
// stylesheet: no JavaScript, no fonts, nothing fetched when it is read.
package annotate
