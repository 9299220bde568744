package stacktest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

var commands = []string{"apiserver", "controller-manager", "etcd", "hollow-node", "kubecfg"}

// BinDir returns a directory holding every binary a stack needs. It uses
// $KUBE_REWIND_BIN when that holds them all; otherwise it builds them once
// per test binary into the module's _output/testbin (build).
func BinDir(tb testing.TB) string {
	tb.Helper()
	if dir := os.Getenv("KUBE_REWIND_BIN"); dir != "" && complete(dir) {
		return dir
	}
	buildOnce.Do(func() { buildDir, buildErr = build() })
	if buildErr != nil {
		tb.Fatalf("building binaries: %v", buildErr)
	}
	return buildDir
}

// stackBinaries names what build puts in _output/testbin: the commands
// and the modern controller-manager.
func stackBinaries() []string {
	return append(slices.Clone(commands), stack.ManagerBinary("modern"))
}

func complete(dir string) bool {
	for _, name := range stackBinaries() {
		if !fileExists(filepath.Join(dir, name)) {
			return false
		}
	}
	return true
}

// build builds the stack's commands into the module's _output/testbin,
// which every test binary of the module shares: a temporary directory of
// each test binary's own was never removed, and left a whole build behind
// in the system's for every package a plain go test ran (make test sets
// KUBE_REWIND_BIN and builds none).
func build() (string, error) {
	root, dir, err := sharedDir()
	if err != nil {
		return "", err
	}
	err = install(root, dir, func(tmp string) error {
		args := []string{"build", "-o", tmp + "/"}
		for _, c := range commands {
			args = append(args, "./cmd/"+c)
		}
		if out, err := run(root, args...); err != nil {
			return fmt.Errorf("%v\n%s", err, out)
		}
		if out, err := run(root, "build", "-tags", "modern", "-o", filepath.Join(tmp, stack.ManagerBinary("modern")), "./cmd/controller-manager"); err != nil {
			return fmt.Errorf("%v\n%s", err, out)
		}
		return nil
	})
	return dir, err
}

// sharedDir returns the module's root and its _output/testbin, made if
// need be.
func sharedDir() (root, dir string, err error) {
	if root, err = ModuleRoot(); err != nil {
		return "", "", err
	}
	dir = filepath.Join(root, "_output", "testbin")
	return root, dir, os.MkdirAll(dir, 0o755)
}

// install runs build, in the module at root, into a directory of its own
// inside dir (build's argument), and renames what it built into
// dir, under a lock that the module's other test binaries take too. A
// rename never writes over a binary that another test is running: that
// one keeps the file it opened.
func install(root, dir string, build func(tmp string) error) error {
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	tmp, err := os.MkdirTemp(dir, ".build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := build(tmp); err != nil {
		return err
	}
	built, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, b := range built {
		if err := os.Rename(filepath.Join(tmp, b.Name()), filepath.Join(dir, b.Name())); err != nil {
			return err
		}
	}
	return nil
}

var (
	extraMu    sync.Mutex
	extraBuilt = map[string]string{}
)

// Binary returns the path of cmd/<name>: from BinDir when it holds it (make
// test's _output/bin holds every command), else built once per test binary
// into the module's _output/testbin.
func Binary(tb testing.TB, name string) string {
	tb.Helper()
	// Only what this test binary's own build put in _output/testbin is
	// fresh there: a command built once as an extra stays behind in it,
	// and would be taken, stale, after the code changed.
	dir := BinDir(tb)
	fresh := dir == os.Getenv("KUBE_REWIND_BIN") || slices.Contains(stackBinaries(), name)
	if path := filepath.Join(dir, name); fresh && fileExists(path) {
		return path
	}
	extraMu.Lock()
	defer extraMu.Unlock()
	if path, ok := extraBuilt[name]; ok {
		return path
	}
	root, dir, err := sharedDir()
	if err != nil {
		tb.Fatal(err)
	}
	err = install(root, dir, func(tmp string) error {
		if out, err := run(root, "build", "-o", filepath.Join(tmp, name), "./cmd/"+name); err != nil {
			return fmt.Errorf("go build ./cmd/%s: %v\n%s", name, err, out)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name)
	extraBuilt[name] = path
	return path
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func run(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// ModuleRoot is the directory of the kube-rewind module the test runs in.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the kube-rewind module")
	}
	return filepath.Dir(mod), nil
}

// Start starts a stack of the design cfg names in a temporary directory
// and stops it when the test ends. On failure the components' logs are
// attached to the test output. A stack of the design the test binary was
// built for is designtest.Start's: this package is the same in both
// builds, so that a test that names its binaries runs once.
func Start(tb testing.TB, cfg stack.Config) *stack.Stack {
	tb.Helper()
	if cfg.Design == "" {
		tb.Fatalf("stacktest.Start: the stack's design is not named (designtest.Start starts this build's)")
	}
	cfg.BinDir = BinDir(tb)
	if cfg.Dir == "" {
		cfg.Dir = tb.TempDir()
	}
	st, err := stack.Start(cfg)
	if err != nil {
		DumpLogs(tb, cfg.Dir)
		tb.Fatalf("starting the stack: %v", err)
	}
	tb.Cleanup(func() {
		st.Stop()
		if tb.Failed() {
			DumpLogs(tb, cfg.Dir)
		}
	})
	return st
}

// DumpLogs attaches the tail of every component's log in dir to the test
// output.
func DumpLogs(tb testing.TB, dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	for _, l := range logs {
		data, _ := os.ReadFile(l)
		if len(data) > 8000 {
			data = data[len(data)-8000:]
		}
		tb.Logf("---- tail of %s ----\n%s", filepath.Base(l), data)
	}
}
