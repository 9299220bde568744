// Package version says which version every binary of this port reports:
// v0.4's numbers with a "-rewind" suffix, and the commit it was built from
// when the build recorded one.
//
// Follows kubernetes/kubernetes pkg/version as of v0.4 (October 2014), where
// the commit was stamped in with -ldflags; here Go's build information
// provides it.
package version
