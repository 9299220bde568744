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
	"strconv"

	"github.com/kube-rewind/kube-rewind/pkg/version"
)

// Value is the value of a -version style flag: false, true or raw.
type Value int

// The values a Value takes.
const (
	False Value = 0
	True  Value = 1
	Raw   Value = 2
)

// IsBoolFlag lets the flag be given without a value.
func (v *Value) IsBoolFlag() bool { return true }

// Get returns the value.
func (v *Value) Get() interface{} { return *v }

// Set reads "raw" or a boolean.
func (v *Value) Set(s string) error {
	if s == "raw" {
		*v = Raw
		return nil
	}
	b, err := strconv.ParseBool(s)
	if b {
		*v = True
	} else {
		*v = False
	}
	return err
}

// String returns "raw", "true" or "false".
func (v *Value) String() string {
	if *v == Raw {
		return "raw"
	}
	return strconv.FormatBool(*v == True)
}

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
