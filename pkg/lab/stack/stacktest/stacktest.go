package stacktest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kube-rewind/kube-rewind/pkg/lab/stack"
)

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

var commands = []string{"apiserver", "controller-manager", "hollow-node", "kubecfg"}

// BinDir returns a directory holding every binary a stack needs. It uses
// $KUBE_REWIND_BIN when that holds them all; otherwise it builds them once
// per test binary into a temporary directory.
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

func complete(dir string) bool {
	for _, name := range append(commands, stack.ManagerBinary("modern")) {
		if !fileExists(filepath.Join(dir, name)) {
			return false
		}
	}
	return true
}

func build() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "kube-rewind-bin-")
	if err != nil {
		return "", err
	}
	args := []string{"build", "-o", dir + "/"}
	for _, c := range commands {
		args = append(args, "./cmd/"+c)
	}
	if out, err := run(root, args...); err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	if out, err := run(root, "build", "-tags", "modern", "-o", filepath.Join(dir, stack.ManagerBinary("modern")), "./cmd/controller-manager"); err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	return dir, nil
}

var (
	extraMu    sync.Mutex
	extraBuilt = map[string]string{}
)

// Binary returns the path of cmd/<name>: from BinDir when it holds it (make
// test's _output/bin holds every command), else built once per test binary
// into a temporary directory.
func Binary(tb testing.TB, name string) string {
	tb.Helper()
	if path := filepath.Join(BinDir(tb), name); fileExists(path) {
		return path
	}
	extraMu.Lock()
	defer extraMu.Unlock()
	if path, ok := extraBuilt[name]; ok {
		return path
	}
	root, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "kube-rewind-bin-")
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if out, err := run(root, "build", "-o", path, "./cmd/"+name); err != nil {
		tb.Fatalf("go build ./cmd/%s: %v\n%s", name, err, out)
	}
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

func moduleRoot() (string, error) {
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

// Start starts a stack of this test binary's design in a temporary
// directory and stops it when the test ends. On failure the components'
// logs are attached to the test output.
func Start(tb testing.TB, cfg stack.Config) *stack.Stack {
	tb.Helper()
	cfg.BinDir = BinDir(tb)
	if cfg.Dir == "" {
		cfg.Dir = tb.TempDir()
	}
	if cfg.Design == "" {
		cfg.Design = Design
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
