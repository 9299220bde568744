// Package pages makes the pages of make docs that are built from
// excerpts, the middle layer of pkg/lab/annotate: the walk that follows
// one pod from kubecfg to a Running pod (Walk), the pages that set the
// 2014 and modern controllers side by side (Comparisons), and the history
// page of pkg/history's catalogue with what the last history run measured.
// The tour's stops and the rows are data here; edit walk.go and
// comparisons.go.
//
// It imports pkg/lab/annotate, which cuts and renders the excerpts and
// writes the pages, and never the site above it (pkg/lab/annotate/site),
// which decides which pages exist and links them from the index.
//
// Ours: not part of 2014.
package pages
