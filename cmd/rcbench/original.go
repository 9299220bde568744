package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kube-rewind/kube-rewind/pkg/lab/original"
)

// originalCommand runs make original: export v0.4 from the repository the
// user names, edit the scratch copy for today's Go, build it.
func originalCommand(args []string) int {
	fs := flag.NewFlagSet("rcbench original", flag.ContinueOnError)
	src := fs.String("src", "", fmt.Sprintf("A Kubernetes git repository holding commit %.7s (v0.4): a checkout or a bare git directory, e.g. a clone of %s.", original.Commit, original.Source))
	out := fs.String("out", "_output/v0.4", "Directory for the binaries.")
	scratch := fs.String("scratch", "_output/v0.4-src", "Scratch GOPATH the tree is exported into and edited in (replaced on every build).")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rcbench original: unexpected arguments %q\n", fs.Args())
		return 2
	}
	fmt.Fprintf(os.Stderr, "building Kubernetes v0.4 (%.7s) from %s into %s\n", original.Commit, *src, *out)
	built, err := original.Build(original.BuildOptions{Src: *src, Out: *out, Scratch: *scratch})
	if err != nil {
		fmt.Fprintf(os.Stderr, "rcbench original: %v\n", err)
		return 1
	}
	for _, b := range original.Binaries {
		fmt.Fprintf(os.Stderr, "  %-40s %5.1f MB\n", filepath.Join(*out, b), float64(built.Sizes[b])/1e6)
	}
	fmt.Fprintf(os.Stderr, "built in %.0f s; %s says what was edited and why\n", built.Duration.Seconds(), filepath.Join(*out, original.BuildInfoFile))
	return 0
}
