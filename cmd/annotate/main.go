// Command annotate renders kube-rewind's source as a static website:
// two-column annotated pages per file, and pages that set the 2014 and
// modern controllers side by side. `make docs` runs it.
//
// Ours: not part of 2014; the layout follows docco and Go by Example.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kube-rewind/kube-rewind/pkg/lab/annotate/site"
	"github.com/kube-rewind/kube-rewind/pkg/version/verflag"
)

var (
	out  = flag.String("out", "_output/docs", "The directory to write the site into.")
	root = flag.String("root", ".", "The root of the kube-rewind repository to read.")
)

func main() {
	flag.Parse()
	verflag.PrintAndExitIfRequested()
	res, err := site.Build(*root, *out)
	if err != nil {
		fmt.Fprintf(os.Stderr, "annotate: %v\n", err)
		os.Exit(1)
	}
	index, _ := filepath.Abs(filepath.Join(*out, "index.html"))
	fmt.Printf("annotate: %d source files, %d pages; open file://%s\n", res.Files, len(res.Pages), index)
}
