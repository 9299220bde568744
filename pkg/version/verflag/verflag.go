// Package verflag gives a binary the -version flag every v0.4 binary had:
// -version prints "Kubernetes <gitVersion>", -version=raw the Go syntax of
// the version, and the binary then exits 0.
//
// Follows kubernetes/kubernetes pkg/version/verflag as of v0.4 (October
// 2014): importing the package registers the flag on the command line, and
// main calls PrintAndExitIfRequested after flag.Parse.
package verflag

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/kube-rewind/kube-rewind/pkg/version"
)

// Value is the value of a -version style flag: false, true or raw.
type Value = version.Flag

// The values a Value takes.
const (
	False = version.FlagFalse
	True  = version.FlagTrue
	Raw   = version.FlagRaw
)

var versionFlag Value

func init() {
	flag.Var(&versionFlag, "version", "Print version information and quit")
}

// Print writes the version as the flag value asks and reports whether it
// wrote anything.
func Print(w io.Writer, v Value) bool {
	switch v {
	case Raw:
		fmt.Fprintf(w, "%#v\n", version.Get())
	case True:
		fmt.Fprintf(w, "Kubernetes %s\n", version.Get().GitVersion)
	default:
		return false
	}
	return true
}

// PrintAndExitIfRequested prints the version on stdout and exits 0 when
// -version was given.
func PrintAndExitIfRequested() {
	if Print(os.Stdout, versionFlag) {
		os.Exit(0)
	}
}
