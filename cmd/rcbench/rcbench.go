// Command rcbench runs the scenarios of pkg/lab/scenario against real clusters:
// "rcbench bench" measures both designs over repeated runs and writes a
// report (make bench); "rcbench history" measures what each change of
// pkg/history bought (make history); "rcbench demo" runs one scenario on both designs at
// once, narrated, for a talk (make demo). "rcbench list" lists the
// scenarios.
//
// Ours: not part of 2014.
package main

import (
	"fmt"
	"os"
	"sort"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario"
)

// subcommands are registered by the files of this package, one each.
var subcommands = map[string]func(args []string) int{
	"list": list,
}

func main() {
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
