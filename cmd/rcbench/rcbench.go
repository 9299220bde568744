// Command rcbench runs the scenarios of pkg/lab/scenario against real clusters:
// "rcbench bench" measures both designs over repeated runs and writes a
// report (make bench); "rcbench demo" runs one scenario on both designs at
// once, narrated, for a talk (make demo). "rcbench list" lists the
// scenarios.
//
// Ours: not part of 2014.
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
)

// subcommands are registered by the files of this package, one each.
var subcommands = map[string]func(args []string) int{
	"list": list,
}

func main() {
	// -version comes before any subcommand, as on every other binary.
	if len(os.Args) == 2 && strings.HasPrefix(os.Args[1], "-") {
		fs := flag.NewFlagSet("rcbench", flag.ExitOnError)
		var v verflag.Value
		fs.Var(&v, "version", "Print version information and quit")
		fs.Parse(os.Args[1:])
		if verflag.Print(os.Stdout, v) {
			os.Exit(0)
		}
	}
	if len(os.Args) < 2 || subcommands[os.Args[1]] == nil {
		names := make([]string, 0, len(subcommands))
		for n := range subcommands {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: rcbench <%s> [flags]\n", joinBar(names))
		os.Exit(2)
	}
	os.Exit(subcommands[os.Args[1]](os.Args[2:]))
}

func joinBar(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += "|"
		}
		out += n
	}
	return out
}

// list prints every scenario with what it reproduces.
func list(args []string) int {
	for _, sc := range scenario.All() {
		fmt.Printf("%-13s %s\n              reproduces %s\n", sc.Name, sc.Title, sc.Reproduces)
	}
	return 0
}
