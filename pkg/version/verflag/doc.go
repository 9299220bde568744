// Package verflag gives a binary the -version flag every v0.4 binary had:
// -version prints "Kubernetes <gitVersion>", -version=raw the Go syntax of
// the version, and the binary then exits 0.
//
// Follows kubernetes/kubernetes pkg/version/verflag as of v0.4 (October
// 2014): importing the package registers the flag on the command line, and
// main calls PrintAndExitIfRequested after flag.Parse.
package verflag
