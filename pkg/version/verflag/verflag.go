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
