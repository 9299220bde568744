// Command testreport reports on the tests themselves. `testreport skips
// FILE.json...` lists every test that skipped in go test -json files, with
// its reason (make test runs it at its end); with -allowed it fails on a
// skip that no other file ran and the allow-list does not name (.ci/run
// runs it so).
//
// Ours: not part of 2014.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/kube-rewind/kube-rewind/pkg/lab/testreport"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: testreport skips [-allowed=FILE] FILE.json...\n")
	os.Exit(2)
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	switch os.Args[1] {
	case "skips":
		os.Exit(skips(os.Args[2:]))
	default:
		usage()
	}
}

// module is this module's path, trimmed from the packages printed.
func module() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Main.Path
	}
	return ""
}

func skips(args []string) int {
	fs := flag.NewFlagSet("skips", flag.ExitOnError)
	allowedFile := fs.String("allowed", "", "An allow-list of skips (<package> <test> <why>, one a line): fail on any skip it does not name and no other file ran.")
	fs.Parse(args)
	if fs.NArg() == 0 {
		usage()
	}
	skips, err := testreport.Skips(module(), fs.Args())
	if err != nil {
		fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
		return 1
	}
	allowed := map[string]string{}
	if *allowedFile != "" {
		f, err := os.Open(*allowedFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			return 1
		}
		allowed, err = testreport.Allowed(f)
		f.Close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %s: %v\n", *allowedFile, err)
			return 1
		}
	}
	bad := testreport.Check(skips, allowed)
	fmt.Printf("== %d tests skipped\n", len(skips))
	testreport.WriteSkips(os.Stdout, skips)
	if *allowedFile != "" && len(bad) > 0 {
		fmt.Printf("== %d skipped where no other run ran them and %s does not allow it:\n", len(bad), *allowedFile)
		testreport.WriteSkips(os.Stdout, bad)
		return 1
	}
	return 0
}
