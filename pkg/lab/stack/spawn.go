package stack

import "io"

// StartProcess runs bin with args as a child of this process, its output
// to out, as every component of this package's stacks runs: killed with
// this process, in a process group of its own. It is for stacks started
// by other packages (today's, pkg/lab/stack/today), so that every
// process of every stack is a Process, measured and stopped alike.
func StartProcess(name, bin string, args []string, out io.Writer) (*Process, error) {
	return startProcess(name, bin, args, out)
}
