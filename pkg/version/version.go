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
