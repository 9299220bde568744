// Package version says which version every binary of this port reports:
// v0.4's numbers with a "-rewind" suffix, and the commit it was built from
// when the build recorded one.
//
// Follows kubernetes/kubernetes pkg/version as of v0.4 (October 2014), where
// the commit was stamped in with -ldflags; here Go's build information
// provides it.
package version

import "runtime/debug"

// Info is the version of a binary.
type Info struct {
	Major, Minor, GitVersion, GitCommit, GitTreeState string
}

// Get returns this binary's version.
func Get() Info {
	info := Info{Major: "0", Minor: "4", GitVersion: "v0.4-rewind", GitTreeState: "not a git tree"}
	build, ok := debug.ReadBuildInfo()
	if !ok {
		return info
	}
	for _, s := range build.Settings {
		switch s.Key {
		case "vcs.revision":
			info.GitCommit = s.Value
			if info.GitTreeState == "not a git tree" {
				info.GitTreeState = "clean"
			}
		case "vcs.modified":
			if s.Value == "true" {
				info.GitTreeState = "dirty"
			}
		}
	}
	return info
}
