// Package source reads the project's Go files as the laboratory shows
// them: each file split into docco sections, its comment lines grouped
// into paragraphs, with the build that compiles it (File, ParseFile);
// a directory's files read whole (Package, LoadPackage); and excerpts
// cut from them by declaration name (Ref, Decls, Cut), so that a page
// showing code follows the code as it changes.
//
// It sits below the laboratory's tools and imports none of them: the
// annotated source (pkg/lab/annotate) renders what it reads, and talk
// mode's deck (pkg/lab/demo/deck) cuts its code cards with it, so that
// neither tool imports the other.
//
// Ours: not part of 2014. go/parser finds the comments and the
// declarations, so every line number comes from the parser, never from
// matching raw text.
package source
