package kubecfg

// Follows kubernetes/kubernetes pkg/version and pkg/version/verflag as of
// v0.4 (October 2014): -version and -server_version take true, false or
// "raw" (the Go syntax of the version struct).

import (
	"fmt"

	"github.com/kube-rewind/kube-rewind/pkg/client"
	"github.com/kube-rewind/kube-rewind/pkg/version"
)

// ClientVersion is the version kubecfg reports and, with
// -expect_version_match, expects of the server: the one every binary of the
// port reports (pkg/version).
var ClientVersion = func() client.VersionInfo {
	v := version.Get()
	return client.VersionInfo{Major: v.Major, Minor: v.Minor, GitVersion: v.GitVersion, GitCommit: v.GitCommit, GitTreeState: v.GitTreeState}
}()

// VersionFlag is the value of a -version style flag.
type VersionFlag = version.Flag

// The values a VersionFlag takes.
const (
	VersionFalse = version.FlagFalse
	VersionTrue  = version.FlagTrue
	VersionRaw   = version.FlagRaw
)

// FormatVersion prints info as -version does: "Kubernetes <gitVersion>",
// or the Go syntax of info when raw.
func FormatVersion(info client.VersionInfo, raw bool) string {
	if raw {
		return fmt.Sprintf("%#v", info)
	}
	return "Kubernetes " + info.GitVersion
}
