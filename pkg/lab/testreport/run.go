package testreport

// Running the tests as go test -json runs them, with each package's test
// binary kept from one run to the next. go test links every test binary
// again on every run, cached build or not: on make test's two cores that
// was a large share of its time, most of it for binaries whose code
// had not changed (the heavy ones link etcd's server and client-go).
// go test -c writes a binary to a path it names and, when the binary
// there already has the build ID the sources and flags give, leaves it as
// it is; so Run builds every package's binary into a folder that stays,
// then runs each through test2json in its package's folder, as go test
// does.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RunOptions are one run of the tests of some packages.
type RunOptions struct {
	// Go is the go command; Dir is the folder it runs in (the module's).
	Go, Dir string
	// Bin is the folder the test binaries are kept in from run to run;
	// one folder for each set of build flags.
	Bin string
	// Build are go test's build flags (-tags=modern, -race).
	Build []string
	// Test are the flags for each test binary, as go test passes them
	// (-test.count=1, -test.run=...).
	Test []string
	// Packages are go test's package patterns, in the order the packages
	// start: a package's first place counts.
	Packages []string
	// P is how many test binaries run at once (go test -p).
	P int
	// Out receives go test -json's events, one a line; a package that
	// does not build has the build's words as its output.
	Out io.Writer
}

// testPackage is a package that has tests.
type testPackage struct {
	ImportPath, Dir string
	// binary is its test binary's path once it is built; build its
	// failure.
	binary string
	build  []byte
}

// SplitFlags sorts go test's command line into RunOptions: its build
// flags, the flags it passes to each test binary, -p, and the package
// patterns. A flag it does not know is an error, so that none is lost.
func SplitFlags(args []string) (o RunOptions, err error) {
	o.P = 4
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			o.Packages = append(o.Packages, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "race", "short", "v", "failfast":
			if !hasValue {
				value = "true"
			}
		case "tags", "count", "timeout", "parallel", "run", "skip", "p", "cpu", "shuffle":
			if !hasValue {
				if i+1 == len(args) {
					return o, fmt.Errorf("%s needs a value", a)
				}
				i++
				value = args[i]
			}
		default:
			return o, fmt.Errorf("go test's flag %s is not one the runner passes on", a)
		}
		switch name {
		case "race":
			if value == "true" {
				o.Build = append(o.Build, "-race")
			}
		case "tags":
			o.Build = append(o.Build, "-tags="+value)
		case "p":
			if o.P, err = strconv.Atoi(value); err != nil || o.P < 1 {
				return o, fmt.Errorf("-p=%s: want a count", value)
			}
		default:
			o.Test = append(o.Test, "-test."+name+"="+value)
		}
	}
	if len(o.Packages) == 0 {
		o.Packages = []string{"."}
	}
	return o, nil
}

// Run builds the test binaries of the packages that have tests, keeping
// them in o.Bin, then runs them o.P at a time in the packages' order,
// each in its package's folder, and writes their go test -json events to
// o.Out. A package that does not build fails, with the build's words as
// its output, as go test reports it. Run's error says only whether
// anything failed.
func Run(ctx context.Context, o RunOptions) error {
	pkgs, err := listTestPackages(ctx, o)
	if err != nil {
		return err
	}
	buildAll(ctx, o, pkgs)
	var (
		mu     sync.Mutex
		failed []string
		wg     sync.WaitGroup
		slots  = make(chan struct{}, max(o.P, 1))
	)
	out := &lineWriter{w: o.Out}
	for _, p := range pkgs {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if !runPackage(ctx, o, p, out) {
				mu.Lock()
				failed = append(failed, p.ImportPath)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(failed) > 0 {
		sort.Strings(failed)
		return fmt.Errorf("%d packages failed: %s", len(failed), strings.Join(failed, " "))
	}
	return ctx.Err()
}

// Build builds the test binaries of o.Packages into o.Bin as Run does
// before it runs any, and runs none: make test links both builds so
// before it runs either (its test-run says why). A Run after Build finds
// each binary up to date and links nothing again. Build's error names the
// packages that did not build; Run, which builds them again, reports why.
func Build(ctx context.Context, o RunOptions) error {
	pkgs, err := listTestPackages(ctx, o)
	if err != nil {
		return err
	}
	buildAll(ctx, o, pkgs)
	var failed []string
	for _, p := range pkgs {
		if p.binary == "" {
			failed = append(failed, p.ImportPath)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d packages did not build: %s", len(failed), strings.Join(failed, " "))
	}
	return ctx.Err()
}

// listTestPackages lists the packages of o.Packages that have tests, in
// go list's order: the patterns' order, each package once.
func listTestPackages(ctx context.Context, o RunOptions) ([]*testPackage, error) {
	args := append([]string{"list", "-e"}, o.Build...)
	args = append(args, "-f", "{{.ImportPath}}\t{{.Dir}}\t{{if or .TestGoFiles .XTestGoFiles}}tests{{end}}")
	args = append(args, o.Packages...)
	cmd := exec.CommandContext(ctx, o.Go, args...)
	cmd.Dir = o.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []*testPackage
	for _, line := range strings.Split(strings.TrimSpace(string(stdout)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 && f[2] == "tests" {
			pkgs = append(pkgs, &testPackage{ImportPath: f[0], Dir: f[1]})
		}
	}
	return pkgs, nil
}

// batches groups pkgs so that no two of a group share the last element
// of their import path, which names a test binary that go test -c writes
// into a folder: one go command builds a group. The first group takes
// every package it can.
func batches(pkgs []*testPackage) [][]*testPackage {
	var groups [][]*testPackage
	var names []map[string]bool
	for _, p := range pkgs {
		base := path.Base(p.ImportPath)
		k := 0
		for k < len(groups) && names[k][base] {
			k++
		}
		if k == len(groups) {
			groups, names = append(groups, nil), append(names, map[string]bool{})
		}
		groups[k], names[k][base] = append(groups[k], p), true
	}
	return groups
}

// buildAll builds every package's test binary into o.Bin, a group at a
// time (batches); go leaves a binary that is up to date as it is. When a
// group's build fails, each of its packages is built alone to find which
// failed and why.
func buildAll(ctx context.Context, o RunOptions, pkgs []*testPackage) {
	for k, group := range batches(pkgs) {
		dir := filepath.Join(o.Bin, strconv.Itoa(k))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			for _, p := range group {
				p.build = []byte(err.Error())
			}
			continue
		}
		paths := make([]string, len(group))
		for i, p := range group {
			paths[i] = p.ImportPath
		}
		if _, err := goTestC(ctx, o, dir+string(filepath.Separator), paths...); err == nil {
			for _, p := range group {
				p.binary = filepath.Join(dir, path.Base(p.ImportPath)+".test")
			}
			continue
		}
		for _, p := range group {
			bin := filepath.Join(dir, path.Base(p.ImportPath)+".test")
			if out, err := goTestC(ctx, o, bin, p.ImportPath); err != nil {
				os.Remove(bin)
				p.build = append(out, []byte(err.Error()+"\n")...)
				continue
			}
			p.binary = bin
		}
	}
}

// linkFlags link every test binary without DWARF: nothing here reads it
// (a panic's trace and a profile's names come from the symbol table,
// which stays), and on two cores make test links some hundred and thirty
// binaries from a fresh clone, each in about three quarters of the CPU
// without it (pkg/lab/bench's, measured once and not published).
const linkFlags = "-ldflags=-w"

// goTestC runs go test -c -o out for packages.
func goTestC(ctx context.Context, o RunOptions, out string, packages ...string) ([]byte, error) {
	args := append([]string{"test", "-c", linkFlags, "-o", out}, o.Build...)
	cmd := exec.CommandContext(ctx, o.Go, append(args, packages...)...)
	cmd.Dir = o.Dir
	return cmd.CombinedOutput()
}

// runPackage runs p's test binary through test2json in p's folder and
// reports whether it passed. A package that did not build fails with the
// build's output.
func runPackage(ctx context.Context, o RunOptions, p *testPackage, out *lineWriter) bool {
	if p.binary == "" {
		event := func(action, output string) {
			e := struct {
				Time                    time.Time
				Action, Package, Output string `json:",omitempty"`
			}{Time: time.Now(), Action: action, Package: p.ImportPath, Output: output}
			data, _ := json.Marshal(e)
			out.Write(append(data, '\n'))
		}
		event("start", "")
		for _, line := range strings.SplitAfter(string(p.build), "\n") {
			if line != "" {
				event("output", line)
			}
		}
		event("output", "FAIL\t"+p.ImportPath+" [build failed]\n")
		event("fail", "")
		return false
	}
	bin, err := filepath.Abs(p.binary)
	if err != nil {
		bin = p.binary
	}
	args := append([]string{"tool", "test2json", "-t", "-p", p.ImportPath, bin, "-test.v=test2json", "-test.paniconexit0"}, o.Test...)
	cmd := exec.CommandContext(ctx, o.Go, args...)
	cmd.Dir = p.Dir
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return false
	}
	if err := cmd.Start(); err != nil {
		return false
	}
	r := bufio.NewReaderSize(stdout, 1<<16)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			out.Write(line)
		}
		if err != nil {
			break
		}
	}
	return cmd.Wait() == nil
}

// lineWriter writes whole lines from several goroutines, one at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(line []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(line)
}
