// Command rcbench runs the scenarios of pkg/lab/scenario/scripts against real clusters:
// "rcbench bench" measures both designs over repeated runs and writes a
// report (make bench); "rcbench history" measures what each change of
// pkg/history bought (make history); "rcbench demo" runs one scenario on both designs at
// once, narrated, for a talk (make demo); "rcbench replay" plays a
// recording of one and "rcbench deck" makes a whole talk of several;
// "rcbench listcost" times LISTs of every pod on a large apiserver;
// "rcbench publish" runs every published page at one commit (make publish).
// "rcbench list" lists the scenarios.
//
// Ours: not part of 2014.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/kube-rewind/kube-rewind/pkg/lab/scenario/scripts"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
)

// subcommand is one command of rcbench, with a line saying what it does
// for the usage text.
type subcommand struct {
	name    string
	summary string
	run     func(args []string) int
}

// subcommands lists rcbench's commands in the order its usage shows them;
// each but list has a file of its own.
var subcommands = []subcommand{
	{"bench", "measure the 2014 and modern designs over repeated runs and write a report (make bench)", benchCommand},
	{"deck", "make one page of several recordings, a whole talk, that plays from disk; -stills exports its pictures", deckCommand},
	{"demo", "play one scenario on both designs at once, narrated, with a live page (make demo)", demoCommand},
	{"history", "measure what each change of pkg/history bought, with and without it (make history)", historyCommand},
	{"list", "list the scenarios, each with the incident it reproduces", list},
	{"listcost", "time LISTs of every pod on a large apiserver, and compare apiserver binaries", listCostCommand},
	{"original", "build the original v0.4 apiserver, controller-manager and kubecfg from a Kubernetes git repository (make original)", originalCommand},
	{"publish", "run every published page at one commit into examples/ and update the README's lines about them (make publish); -plan prints the plan", publishCommand},
	{"replay", "play a recorded talk on the live page, pausing at each step", replayCommand},
}

// lookup returns the subcommand called name, or nil.
func lookup(name string) *subcommand {
	for i := range subcommands {
		if subcommands[i].name == name {
			return &subcommands[i]
		}
	}
	return nil
}

func main() {
	// -version comes before any subcommand, as on every other binary.
	if len(os.Args) == 2 && strings.HasPrefix(strings.TrimLeft(os.Args[1], "-"), "version") {
		fs := flag.NewFlagSet("rcbench", flag.ExitOnError)
		var v verflag.Value
		fs.Var(&v, "version", "Print version information and quit")
		fs.Parse(os.Args[1:])
		if verflag.Print(os.Stdout, v) {
			os.Exit(0)
		}
	}
	if len(os.Args) < 2 || lookup(os.Args[1]) == nil {
		os.Exit(usage(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(lookup(os.Args[1]).run(os.Args[2:]))
}

// usage prints what rcbench does and its subcommands: on stdout with exit
// status 0 when help was asked for, on stderr with 2 otherwise.
func usage(args []string, stdout, stderr io.Writer) int {
	w, code := stderr, 2
	if len(args) > 0 {
		switch args[0] {
		case "-h", "-help", "--help", "help":
			w, code = stdout, 0
		default:
			fmt.Fprintf(stderr, "rcbench: unknown command %q\n\n", args[0])
		}
	}
	width := 0
	for _, c := range subcommands {
		width = max(width, len(c.name))
	}
	fmt.Fprintf(w, "usage: rcbench <command> [flags]\n\n")
	fmt.Fprintf(w, "rcbench runs the scenarios of kube-rewind on real clusters on loopback.\n\nCommands:\n")
	for _, c := range subcommands {
		fmt.Fprintf(w, "  %-*s   %s\n", width, c.name, c.summary)
	}
	fmt.Fprintf(w, "\n\"rcbench <command> -h\" lists a command's flags.\n")
	return code
}

// list prints every scenario with what it reproduces, the titles lined
// up after the longest name.
func list(args []string) int {
	listTo(os.Stdout)
	return 0
}

func listTo(w io.Writer) {
	width := 0
	for _, sc := range scripts.All() {
		width = max(width, len(sc.Name))
	}
	for _, sc := range scripts.All() {
		fmt.Fprintf(w, "%-*s  %s\n%*s  reproduces %s\n", width, sc.Name, sc.Title, width, "", sc.Reproduces)
	}
}
